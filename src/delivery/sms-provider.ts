import type { Sql } from '../database/sql.js';

export const SMS_PROVIDER = Symbol('SMS_PROVIDER');

export interface SmsSubmission {
  /** Our identifier of the message (its `uniq_id`). */
  messageId: string;
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
}

export interface SmsAccepted {
  /** The provider's identifiers, one per part; delivery receipts name one of them. */
  providerIds: string[];
  /** Submits made again because the provider was busy (each a hand-over retry). */
  retries?: number;
}

/**
 * One SMS provider, chosen by `SMS_PROVIDER`. `submit` resolves once the
 * provider has accepted the message, and throws a TransientDeliveryError or a
 * PermanentDeliveryError otherwise.
 */
export interface SmsProvider {
  readonly name: string;
  /** Whether delivery receipts will name the provider ids it returns. */
  readonly sendsReceipts: boolean;
  submit(sms: SmsSubmission): Promise<SmsAccepted>;
  /** In the unit of work that records its acceptance of a message, under the ids it gave: what it must do later (the `log` provider's receipt). */
  accepted?(sql: Sql, providerIds: string[], at: Date): Promise<void>;
  /** Called whenever the provider becomes able to take messages again (an SMSC bind). */
  onReady?(listener: () => void): void;
}
