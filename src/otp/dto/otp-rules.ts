import type { ValidationArguments } from 'class-validator';
import { rule } from '../../common/validation/rule.js';
import { isValidSenderName } from '../../sender/sender-name.js';
import { EMAIL_INVALID, parseEmail, parsePhone, PHONE_INVALID } from '../../common/recipient.js';
import { MAX_MESSAGE_LENGTH } from '../../sending/message-rules.js';
import { canonicalIp } from '../../fraud/ip-address.js';
import { USER_REF, USER_REF_INVALID } from '../../fraud/fraud-list.rules.js';

export const OTP_PLACEHOLDER = '##OTP##';
export const DEFAULT_OTP_LENGTH = 6;

type Channel = 'SMS' | 'EMAIL';
const channelOf = (args: ValidationArguments): Channel | undefined => {
  const channel = (args.object as { channel?: unknown }).channel;
  return channel === 'SMS' || channel === 'EMAIL' ? channel : undefined;
};

/** `to` is a phone number in international form for SMS, an e-mail address for EMAIL. */
export const IsRecipientForChannel = rule(
  'isRecipientForChannel',
  (value, args) => {
    const channel = channelOf(args);
    if (channel === undefined || typeof value !== 'string') return true;
    return channel === 'SMS' ? parsePhone(value) !== null : parseEmail(value) !== null;
  },
  (args) => (channelOf(args) === 'EMAIL' ? EMAIL_INVALID : PHONE_INVALID),
);

/** An SMS sender is a valid sender name; an e-mail sender is a display name on one line. */
export const IsSenderForChannel = rule(
  'isSenderForChannel',
  (value, args) => {
    const channel = channelOf(args);
    if (channel === undefined || typeof value !== 'string') return true;
    if (channel === 'EMAIL') return value.length <= 100 && !/[\r\n]/.test(value);
    return isValidSenderName(value);
  },
  (args) =>
    channelOf(args) === 'EMAIL'
      ? 'doit tenir sur une ligne de 100 caractères au plus'
      : "doit faire 11 lettres, chiffres ou espaces au plus avec au moins une lettre, ou 15 chiffres au plus",
);

export const OTP_LENGTHS = { min: 4, max: 6 } as const;

/** A code's lifetime (`otp_expiry`), in seconds. */
export const OTP_EXPIRY_SECONDS = { min: 60, max: 3600, default: 300 } as const;
/** No code lives longer: one created earlier than this before a time has expired by then. */
export const LONGEST_OTP_LIFETIME_MS = OTP_EXPIRY_SECONDS.max * 1000;

/** The message carries the code: `##OTP##` at least once. */
export const HasPlaceholder = rule(
  'hasPlaceholder',
  (value) => typeof value === 'string' && value.includes(OTP_PLACEHOLDER),
  () => `doit contenir ${OTP_PLACEHOLDER}`,
  { pattern: OTP_PLACEHOLDER },
);

/** At most 1,600 UTF-16 units once every placeholder holds the code (of the default length while `otp_length` is invalid). */
export const FitsWithCode = rule(
  'fitsWithCode',
  (value, args) => {
    if (typeof value !== 'string') return true;
    const length = (args.object as { otp_length?: unknown }).otp_length;
    const valid = typeof length === 'number' && Number.isInteger(length) && length >= OTP_LENGTHS.min && length <= OTP_LENGTHS.max;
    const codeLength = valid ? length : DEFAULT_OTP_LENGTH;
    const placeholders = value.split(OTP_PLACEHOLDER).length - 1;
    return value.length + placeholders * (codeLength - OTP_PLACEHOLDER.length) <= MAX_MESSAGE_LENGTH;
  },
  () => `ne doit pas dépasser ${MAX_MESSAGE_LENGTH} caractères une fois le code inséré`,
);

/** The end user's address: IPv4 (dotted quad) or IPv6. */
export const IsClientIp = rule('isClientIp', (value) => typeof value !== 'string' || canonicalIp(value) !== null, () => 'adresse IP invalide (IPv4 ou IPv6)', {
  anyOf: [
    { type: 'string', format: 'ipv4' },
    { type: 'string', format: 'ipv6' },
  ],
});

/** The caller's reference for its end user: 1 to 128 printable characters. */
export const IsUserRef = rule('isUserRef', (value) => typeof value !== 'string' || USER_REF.test(value), () => USER_REF_INVALID, {
  minLength: 1,
  maxLength: 128,
  pattern: USER_REF.source,
});
