import fc from 'fast-check';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { validInternational } from './international-number.js';

/** What libphonenumber-js's own parse makes of `digits`: the reading validInternational must give. */
function parsed(digits: string): string | null {
  const number = parsePhoneNumberFromString(digits);
  return number?.isValid() ? `${number.number} ${number.countryCallingCode} ${number.country}` : null;
}

function read(digits: string): string | null {
  const number = validInternational(digits);
  return number ? `${number.number} ${number.countryCallingCode} ${number.country}` : null;
}

/** Each country's example mobile number, and the near misses clients write: a trunk 0 kept, a digit short, a digit over. */
const examplesAndNearMisses = getCountries().flatMap((country: CountryCode) => {
  const national = examples[country];
  if (!national) return [];
  const code = getCountryCallingCode(country);
  return [`+${code}${national}`, `+${code}0${national}`, `+${code}${national.slice(0, -1)}`, `+${code}${national}1`];
});

describe('validInternational', () => {
  it('reads every example number and its near misses as libphonenumber-js parses them', () => {
    expect(examplesAndNearMisses.length).toBeGreaterThan(800);
    expect(examplesAndNearMisses.map(read)).toEqual(examplesAndNearMisses.map(parsed));
  });

  it('reads numbers of the seeded countries and of shared calling codes as libphonenumber-js parses them', () => {
    expect(read('+2250707070707')).toBe('+2250707070707 225 CI');
    expect(read('+221771234567')).toBe('+221771234567 221 SN');
    expect(read('+237671234567')).toBe('+237671234567 237 CM');
    expect(read('+330612345678')).toBe('+33612345678 33 FR');
    expect(read('+12015550123')).toBe('+12015550123 1 US');
    expect(read('+2250707')).toBeNull();
    expect(read('+225')).toBeNull();
  });

  it('agrees with libphonenumber-js on numbers near valid ones and on any digits after a calling code', () => {
    const samples = getCountries().flatMap((country: CountryCode) =>
      examples[country] ? [[getCountryCallingCode(country), examples[country]!]] : [],
    );
    const codes = [...new Set(samples.map(([code]) => code!)), '800', '882'];
    const nearValid = fc
      .tuple(fc.constantFrom(...samples), fc.nat(6), fc.stringMatching(/^\d{0,6}$/), fc.constantFrom('', '0', '1'))
      .map(([[code, national], kept, tail, prefix]) => `+${code}${prefix}${national!.slice(0, national!.length - kept)}${tail}`);
    const anyDigits = fc.tuple(fc.constantFrom(...codes), fc.stringMatching(/^\d{1,14}$/)).map(([code, rest]) => `+${code}${rest}`);
    fc.assert(
      fc.property(fc.oneof(nearValid, anyDigits), (digits) => read(digits) === parsed(digits)),
      { numRuns: 50_000 },
    );
  });
});
