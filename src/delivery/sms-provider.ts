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
}

export interface SmsAccepted {
  /** The provider's identifier, later matched by its delivery receipts. */
  providerId: string;
}

/**
 * One SMS provider, chosen by `SMS_PROVIDER`. `submit` resolves once the
 * provider has accepted the message, and throws a TransientDeliveryError or a
 * PermanentDeliveryError otherwise.
 */
export interface SmsProvider {
  readonly name: string;
  submit(sms: SmsSubmission): Promise<SmsAccepted>;
}
