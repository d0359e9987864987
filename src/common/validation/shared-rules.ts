import { isUuid } from '../ids.js';
import { isPhoneCountry, parsePhone, PHONE_INVALID } from '../recipient.js';
import { rule } from './rule.js';

export const COUNTRY_INVALID = 'doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)';

/** The country national numbers are read in (`default_country`). */
export const IsPhoneCountry = rule('isPhoneCountry', isPhoneCountry, () => COUNTRY_INVALID);

/** A phone number in international form (a `+` left unencoded in a query string arrives as a space, which is ignored). */
export const IsPhone = rule('isPhone', (value) => typeof value === 'string' && parsePhone(value) !== null, () => PHONE_INVALID);

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
