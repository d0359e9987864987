import { isUuid } from '../common/ids.js';
import { EMAIL_INVALID, isPhoneCountry, parseEmail, parsePhone, PHONE_INVALID } from '../common/recipient.js';
import { rule } from '../common/validation/rule.js';
import { isPlainObject } from '../common/validation/request-validation.pipe.js';

export const MAX_ATTRIBUTES = 20;
const ATTRIBUTE_KEY = /^[a-z0-9_]{1,32}$/;
const MAX_ATTRIBUTE_VALUE = 255;

/** The problem with an `attributes` object, or null: at most 20 keys `[a-z0-9_]{1,32}` with text values of at most 255 characters. */
export function attributesProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'doit être un objet';
  const entries = Object.entries(value);
  if (entries.length > MAX_ATTRIBUTES) return `${MAX_ATTRIBUTES} clés au plus`;
  for (const [key, text] of entries) {
    if (!ATTRIBUTE_KEY.test(key)) return `clé « ${key.slice(0, 40)} » invalide (a-z, 0-9 et _, 32 caractères au plus)`;
    if (typeof text !== 'string') return `${key}: doit être une chaîne de caractères`;
    if (text.length > MAX_ATTRIBUTE_VALUE) return `${key}: ne doit pas dépasser ${MAX_ATTRIBUTE_VALUE} caractères`;
  }
  return null;
}

export const IsAttributes = rule(
  'isAttributes',
  (value) => attributesProblem(value) === null,
  (args) => attributesProblem(args.value) ?? '',
);

/** A phone number, read with the object's `default_country` when it has a valid one. */
export const IsContactPhone = rule(
  'isContactPhone',
  (value, args) => typeof value === 'string' && parsePhone(value, defaultCountryOf(args.object)) !== null,
  () => PHONE_INVALID,
);

export const IsContactEmail = rule('isContactEmail', (value) => typeof value === 'string' && parseEmail(value) !== null, () => EMAIL_INVALID);

export const IsPhoneCountry = rule('isPhoneCountry', isPhoneCountry, () => 'doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)');

/** A list of 1 to `max` UUIDs (strict JSON: an array of strings). */
export const IsIdList = (max: number) =>
  rule(
    'isIdList',
    (value) => Array.isArray(value) && value.length >= 1 && value.length <= max && value.every((id) => typeof id === 'string' && isUuid(id)),
    () => `doit être une liste de 1 à ${max} identifiants (UUID)`,
  )();

/** A list of 1 to `max` texts. */
export const IsTextList = (max: number) =>
  rule(
    'isTextList',
    (value) => Array.isArray(value) && value.length >= 1 && value.length <= max && value.every((text) => typeof text === 'string'),
    () => `doit être une liste de 1 à ${max} chaînes de caractères`,
  )();

export const defaultCountryOf = (object: object): string | undefined => {
  const country = (object as { default_country?: unknown }).default_country;
  return isPhoneCountry(country) ? country : undefined;
};
