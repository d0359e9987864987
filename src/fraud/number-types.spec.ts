import fc from 'fast-check';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { numberType } from './number-types.js';

/** A number written `+<calling code><national number>`, as libphonenumber-js reads it: its country and its national number. */
function asLibraryReadsIt(e164: string) {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country ? { country: parsed.country, national: parsed.nationalNumber, type: parsed.getType() } : null;
}

describe('numberType', () => {
  it.each([
    ['+2250707070707', 'MOBILE'],
    ['+33899123456', 'PREMIUM_RATE'],
    ['+33140000000', 'FIXED_LINE'],
    ['+18005551234', 'TOLL_FREE'],
    ['+19005551234', 'PREMIUM_RATE'],
    ['+12015550123', 'FIXED_LINE_OR_MOBILE'],
    ['+448712345678', 'PREMIUM_RATE'],
    ['+447012345678', 'PERSONAL_NUMBER'],
    ['+998993941234', 'MOBILE'],
  ])('reads %s as %s', (e164, type) => {
    const read = asLibraryReadsIt(e164)!;
    expect(numberType(read.country, read.national)).toBe(type);
  });

  it('is undefined for a country without a numbering plan', () => {
    expect(numberType('ZZ', '123456')).toBeUndefined();
  });

  it("agrees with libphonenumber-js's getType() on any number of any country", () => {
    const countries = getCountries();
    fc.assert(
      fc.property(fc.constantFrom(...countries), fc.stringMatching(/^[0-9]{4,13}$/), (country, digits) => {
        const read = asLibraryReadsIt(`+${getCountryCallingCode(country)}${digits}`);
        if (read) expect(numberType(read.country, read.national)).toBe(read.type);
      }),
      { numRuns: 20_000 },
    );
  });
});
