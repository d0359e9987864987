import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const OTP_TYPES = ['numeric', 'alphanumeric'] as const;
export type OtpType = (typeof OTP_TYPES)[number];

const ALPHABETS: Record<OtpType, string> = {
  numeric: '0123456789',
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
};

/** A code drawn uniformly from the type's alphabet with a CSPRNG. */
export function generateCode(type: OtpType, length: number): string {
  const alphabet = ALPHABETS[type];
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** HMAC-SHA256 over the OTP's id and the upper-cased code: the only form of a code that is stored. */
export const hashCode = (secret: string, uniqId: string, code: string): string =>
  createHmac('sha256', secret).update(`${uniqId}:${code.toUpperCase()}`).digest('hex');

/** Constant-time comparison of two code hashes. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
