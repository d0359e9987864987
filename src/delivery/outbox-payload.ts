import type { Language } from '../common/language.js';

/** What the dispatcher needs to hand an SMS over. */
export interface SmsPayload {
  from: string;
  to: string;
  text: string;
  secrets: string[];
  /** Minutes the SMSC keeps trying (SMPP validity period); unset for an OTP, whose code expiry bounds it. */
  validityMinutes?: number;
}

/** What the dispatcher needs to compose and send an e-mail. */
export interface EmailPayload {
  to: string;
  fromName: string | null;
  text: string;
  language: Language;
  applicationName: string | null;
  secrets: string[];
}
