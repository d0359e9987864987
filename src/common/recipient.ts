import { isEmail } from 'class-validator';
import { getCountries, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { validInternational } from './international-number.js';
import { TtlCache } from './ttl-cache.js';

export interface PhoneNumber {
  /** E.164, for example `+2250707070707`. */
  e164: string;
  /** Country calling code with its `+`, for example `+225`. */
  dialCode: string;
  /** ISO 3166-1 alpha-2, for example `CI`; null for a number of no single country (+800…). */
  country: string | null;
}

const SEPARATORS = /[\s().-]/g;

/** Long enough for any number written with separators; longer texts are not kept. */
const MAX_KEPT_INPUT = 40;
/** A send validates its recipient, then reads it: the second parse of the same text (several µs) is served from here. */
const recentPhones = new TtlCache<Readonly<PhoneNumber> | null>(10_000, 1_000);

/**
 * A phone number in international form: `+225…`, `00225…` or `225…`, with
 * optional spaces, dots, dashes or parentheses. Null when it is not a valid number.
 * With a `defaultCountry` (ISO-2), a number without `+` or `00` is read in that
 * country's national format first (`07 07 07 07 07` in CI).
 */
export function parsePhone(input: string, defaultCountry?: string): Readonly<PhoneNumber> | null {
  const national = defaultCountry === undefined ? undefined : parseNational(input, defaultCountry);
  if (national !== undefined) return national;
  if (input.length > MAX_KEPT_INPUT) return parseUncached(input);
  const now = Date.now();
  const known = recentPhones.get(input, now);
  if (known !== undefined) return known;
  const phone = parseUncached(input);
  recentPhones.set(input, phone, now);
  return phone;
}

/** parsePhone without its cache, for texts read once (the rows of a file), which would only churn it. */
export function readPhone(input: string, defaultCountry?: string): Readonly<PhoneNumber> | null {
  const national = defaultCountry === undefined ? undefined : parseNational(input, defaultCountry);
  return national !== undefined ? national : parseUncached(input);
}

function parseUncached(input: string): Readonly<PhoneNumber> | null {
  let candidate = input.trim().replace(SEPARATORS, '');
  if (candidate.startsWith('00')) candidate = `+${candidate.slice(2)}`;
  else if (!candidate.startsWith('+')) candidate = `+${candidate}`;
  if (!/^\+[1-9]\d{5,14}$/.test(candidate)) return null;
  const parsed = validInternational(candidate);
  if (!parsed) return null;
  return Object.freeze({ e164: parsed.number, dialCode: `+${parsed.countryCallingCode}`, country: parsed.country ?? null });
}

/** The number read in `country`'s national format; undefined when the text is international or not national there. */
function parseNational(input: string, country: string): Readonly<PhoneNumber> | undefined {
  const text = input.trim();
  if (text.startsWith('+') || text.startsWith('00') || !isSupportedCountry(country)) return undefined;
  const parsed = parsePhoneNumberFromString(text.replace(SEPARATORS, ''), country as CountryCode);
  if (!parsed?.isValid()) return undefined;
  return Object.freeze({ e164: parsed.number, dialCode: `+${parsed.countryCallingCode}`, country: parsed.country ?? null });
}

/** The ISO 3166-1 alpha-2 codes of the countries with a numbering plan, as `default_country` takes them. */
export const PHONE_COUNTRIES: readonly string[] = getCountries().toSorted();

export const isPhoneCountry = (value: unknown): value is string => typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);

const MAX_EMAIL_LENGTH = 254;

const MAX_LOCAL_PART_BYTES = 64;
const MAX_DOMAIN_BYTES = 254;
const MAX_LABEL_LENGTH = 63;
/** The checks of isEmail but its length limits, which it counts by splitting an encodeURI of each part with a regular expression (half its cost). */
const EMAIL_SHAPE = { ignore_max_length: true };

/** An e-mail address, lower-cased; null when it is not one. */
export function parseEmail(input: string): string | null {
  const address = input.trim().toLowerCase();
  return address.length <= MAX_EMAIL_LENGTH && withinEmailLimits(address) && isEmail(address, EMAIL_SHAPE) ? address : null;
}

/** isEmail's length limits: a local part of at most 64 bytes, a domain of at most 254 bytes in labels of at most 63 characters. */
function withinEmailLimits(address: string): boolean {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  return (
    Buffer.byteLength(address.slice(0, Math.max(at, 0))) <= MAX_LOCAL_PART_BYTES &&
    Buffer.byteLength(domain) <= MAX_DOMAIN_BYTES &&
    domain.split('.').every((label) => label.length <= MAX_LABEL_LENGTH)
  );
}

export const PHONE_INVALID = 'numéro de téléphone invalide (format international attendu, par exemple +2250707070707)';
export const EMAIL_INVALID = 'adresse e-mail invalide';
