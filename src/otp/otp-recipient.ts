import { ApiError } from '../common/errors/api-error.js';
import { EMAIL_INVALID, parseEmail, parsePhone, PHONE_INVALID } from '../common/recipient.js';

/** A recipient as an OTP was sent to it: a value with `@` is an e-mail address (lower case), else a phone number (E.164). */
export function normaliseRecipient(to: string): string {
  if (to.includes('@')) {
    const email = parseEmail(to);
    if (email === null) throw ApiError.invalidField('to', EMAIL_INVALID);
    return email;
  }
  const phone = parsePhone(to);
  if (phone === null) throw ApiError.invalidField('to', PHONE_INVALID);
  return phone.e164;
}
