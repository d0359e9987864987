import {
  getCountries,
  getCountryCallingCode,
  Metadata,
  parsePhoneNumberFromString,
  PhoneNumber,
  type CountryCode,
  type MetadataJson,
} from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/min/metadata';

/** What a numbering plan tells that libphonenumber-js's typings leave out. */
type Plan = { nationalPrefixForParsing?: () => string | undefined };

/** The constructor libphonenumber-js's own parse calls, `new PhoneNumber(country, nationalNumber, metadata)`, left out of its typings. */
const NationalNumber = PhoneNumber as unknown as new (country: CountryCode, nationalNumber: string, metadata: MetadataJson) => PhoneNumber;

/**
 * The country of each calling code that belongs to one country only, and whose plan has no national prefix to
 * strip (most of West and Central Africa: CI, SN, CM…). libphonenumber-js's parse of such a number comes down to
 * splitting off its calling code: nothing else can be removed from it, and its country is that one.
 */
const DIRECT = ((): Map<string, CountryCode> => {
  const plans = new Metadata(metadata);
  const countriesOfCode = new Map<string, CountryCode[]>();
  for (const country of getCountries(metadata)) {
    const code = getCountryCallingCode(country, metadata);
    countriesOfCode.set(code, [...(countriesOfCode.get(code) ?? []), country]);
  }
  const direct = new Map<string, CountryCode>();
  for (const [code, [country, ...others]] of countriesOfCode) {
    plans.selectNumberingPlan(country!);
    const plan = plans.numberingPlan as Plan | undefined;
    if (others.length === 0 && typeof plan?.nationalPrefixForParsing === 'function' && !plan.nationalPrefixForParsing()) direct.set(code, country!);
  }
  return direct;
})();

/** Calling codes are one to three digits long, and none is the start of another. */
const MAX_CODE_LENGTH = 3;

/**
 * A number written `+` and digits, valid, as libphonenumber-js's
 * `parsePhoneNumberFromString` (with the min metadata of its default entry
 * point) then `isValid` read it; undefined when it is not valid. The parse
 * spends most of its time on the generality of its arguments (object spreads
 * of its options, a metadata instance per call, a number sought in free text):
 * a number of a DIRECT calling code is checked as a PhoneNumber of its country
 * directly, in a quarter of the time; any other takes the full parse.
 */
export function validInternational(digits: string): PhoneNumber | undefined {
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    const country = DIRECT.get(digits.slice(1, 1 + length));
    if (country === undefined) continue;
    const national = digits.slice(1 + length);
    if (national === '') return undefined;
    const number = new NationalNumber(country, national, metadata);
    return number.isValid() ? number : undefined;
  }
  const parsed = parsePhoneNumberFromString(digits, metadata);
  return parsed?.isValid() ? parsed : undefined;
}
