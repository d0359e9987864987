import type { Sql } from '../database/sql.js';
import type { Traffic } from '../routing/routing-file.js';
import type { SubmitLog } from './submit-log.js';

export const SMS_PROVIDER = Symbol('SMS_PROVIDER');

export interface SmsSubmission {
  /** Our identifier of the message (its `uniq_id`). */
  messageId: string;
  /** The account that sends it, which routes may match on. */
  accountId: string;
  /** OTPs and the rest, which routes may tell apart. */
  traffic: Traffic;
  /** Sender name or number. */
  from: string;
  /** E.164. */
  to: string;
  text: string;
  /** Substrings that must never reach a log (an OTP code). */
  secrets: string[];
  /** After this the message is pointless; the provider may pass it on as a validity period. */
  validUntil: Date | null;
  /** What an earlier attempt had handed over (see TransientDeliveryError.resume), or null. */
  resume: string | null;
  /** A message of a bulk send or a campaign, which may wait behind the others. */
  bulk: boolean;
  /** Minutes the operator keeps trying, from when it takes the message; else `validUntil` bounds it. */
  validityMinutes?: number;
  /** Where each submit to an SMSC and its answer are noted. */
  attempts?: SubmitLog;
}

export interface SmsAccepted {
  /** The provider's identifiers, one per part; delivery receipts name one of them. */
  providerIds: string[];
  /** The connection that took it, stored as the message's `provider`; the provider's name when not said. */
  provider?: string;
  /** Whether receipts will name the provider ids; the provider's `sendsReceipts` when not said. */
  receiptsExpected?: boolean;
}

/**
 * One SMS provider, chosen by configuration. `submit` resolves once the
 * provider has accepted the message, and throws a TransientDeliveryError or a
 * PermanentDeliveryError otherwise.
 */
export interface SmsProvider {
  /** Stored as the message's `provider`; null for one that names the connection in each answer and refusal (the router). */
  readonly name: string | null;
  /** Whether delivery receipts will name the provider ids it returns. */
  readonly sendsReceipts: boolean;
  submit(sms: SmsSubmission): Promise<SmsAccepted>;
  /**
   * In the unit of work that records its acceptance of a message, under the ids it gave: what it must do later (the
   * `log` provider's receipt). `provider` is the one its answer named (`SmsAccepted.provider`).
   */
  accepted?(sql: Sql, providerIds: string[], at: Date, provider: string): Promise<void>;
  /** Called whenever the provider becomes able to take messages again (an SMSC bind). */
  onReady?(listener: () => void): void;
}
