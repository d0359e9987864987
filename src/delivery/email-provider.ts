export const EMAIL_PROVIDER = Symbol('EMAIL_PROVIDER');

export interface EmailSubmission {
  messageId: string;
  to: string;
  /** Display name of the From header; the address is `EMAIL_FROM`. */
  fromName: string | null;
  subject: string;
  text: string;
  html: string;
  /** Substrings that must never reach a log (an OTP code). */
  secrets: string[];
}

/** One e-mail transport, chosen by `EMAIL_TRANSPORT`; errors as for SMS providers. */
export interface EmailProvider {
  readonly name: string;
  send(email: EmailSubmission): Promise<{ providerIds: string[] }>;
}
