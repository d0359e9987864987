import { isUuid, UUID_PATTERN } from '../ids.js';
import { isPhoneCountry, parsePhone, PHONE_COUNTRIES, PHONE_INVALID } from '../recipient.js';
import { isTimeZone, TIME_ZONE_NAME } from '../time-zone.js';
import { Messages } from './messages.js';
import { rule } from './rule.js';

export const COUNTRY_INVALID = 'doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)';

export const COUNTRY_SCHEMA = { type: 'string', enum: [...PHONE_COUNTRIES] };

/** The country national numbers are read in (`default_country`). */
export const IsPhoneCountry = rule('isPhoneCountry', isPhoneCountry, () => COUNTRY_INVALID, COUNTRY_SCHEMA);

/** A phone number in international form (a `+` left unencoded in a query string arrives as a space, which is ignored). */
export const IsPhone = rule('isPhone', (value) => typeof value === 'string' && parsePhone(value) !== null, () => PHONE_INVALID);

/** An IANA time zone (DST followed). */
export const IsTimeZone = rule('isTimeZone', (value) => isTimeZone(value) && TIME_ZONE_NAME.test(value), () => 'fuseau horaire IANA inconnu (par exemple Africa/Abidjan)', {
  pattern: TIME_ZONE_NAME.source,
});

/** A text with something other than spaces in it. */
export const IsNotBlank = rule('isNotBlank', (value) => typeof value === 'string' && /\S/.test(value), () => Messages.notEmpty, { pattern: '\\S' });

/** A list of `min` to `max` UUIDs (strict JSON: an array of strings). */
export const IsIdList = (max: number, min = 1) =>
  rule(
    'isIdList',
    (value) => Array.isArray(value) && value.length >= min && value.length <= max && value.every((id) => typeof id === 'string' && isUuid(id)),
    () => `doit être une liste de ${min} à ${max} identifiants (UUID)`,
    { minItems: min, maxItems: max, items: { type: 'string', format: 'uuid', pattern: UUID_PATTERN } },
  )();

/** A list of 1 to `max` texts. */
export const IsTextList = (max: number) =>
  rule(
    'isTextList',
    (value) => Array.isArray(value) && value.length >= 1 && value.length <= max && value.every((text) => typeof text === 'string'),
    () => `doit être une liste de 1 à ${max} chaînes de caractères`,
    { minItems: 1, maxItems: max, items: { type: 'string' } },
  )();
