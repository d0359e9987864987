import { ApiError } from '../common/errors/api-error.js';
import { isPhoneCountry, parsePhone, PHONE_INVALID } from '../common/recipient.js';
import { COUNTRY_INVALID } from '../common/validation/shared-rules.js';
import type { AddListEntryDto } from './dto/fraud-list.dto.js';
import { ALLOW_KINDS, type ListKind } from './fraud-state.js';
import { canonicalIpOrRange } from './ip-address.js';

const PREFIX = /^\+[1-9]\d{0,13}$/;
/** Printable characters, as a `user_ref` is (no control characters). */
export const USER_REF = /^[^\p{C}]{1,128}$/u;
export const USER_REF_INVALID = 'doit faire de 1 à 128 caractères imprimables';

/** Each kind's value in the form the guard compares it in, or null when it is not one. */
const NORMALISE: Record<ListKind, (value: string) => string | null> = {
  phone: (value) => parsePhone(value)?.e164 ?? null,
  prefix: (value) => {
    const digits = value.trim().replace(/[\s.-]/g, '');
    const prefix = digits.startsWith('+') ? digits : `+${digits}`;
    return PREFIX.test(prefix) ? prefix : null;
  },
  country: (value) => (isPhoneCountry(value) ? value : null),
  ip: (value) => canonicalIpOrRange(value.trim()),
  user_ref: (value) => (USER_REF.test(value) ? value : null),
};

const INVALID: Record<ListKind, string> = {
  phone: PHONE_INVALID,
  prefix: 'préfixe invalide (+ suivi de 1 à 14 chiffres)',
  country: COUNTRY_INVALID,
  ip: 'adresse IP ou plage CIDR invalide',
  user_ref: USER_REF_INVALID,
};

/** A list entry as it is stored: its value normalised, its expiry read; 400 for what cannot be one. */
export function readListEntry(dto: AddListEntryDto, now: Date): { value: string; expiresAt: Date | null } {
  if (dto.list === 'allow' && !ALLOW_KINDS.includes(dto.kind)) {
    throw ApiError.invalidField('kind', `la liste allow n'accepte que ${ALLOW_KINDS.join(' ou ')}`);
  }
  const value = NORMALISE[dto.kind](dto.value);
  if (value === null) throw ApiError.invalidField('value', INVALID[dto.kind]);
  const expiresAt = dto.expires_at === undefined ? null : new Date(dto.expires_at);
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw ApiError.invalidField('expires_at', 'doit être dans le futur');
  return { value, expiresAt };
}
