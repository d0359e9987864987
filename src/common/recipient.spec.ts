import { isEmail } from 'class-validator';
import { parseEmail, parsePhone } from './recipient.js';

describe('parsePhone', () => {
  it.each([
    ['+2250707070707'],
    ['002250707070707'],
    ['2250707070707'],
    ['+225 07 07 07 07 07'],
    ['+225-07-07-07-07-07'],
    ['(+225) 07.07.07.07.07'],
    ['  +2250707070707  '],
  ])('reads %j as +2250707070707', (input) => {
    expect(parsePhone(input)).toEqual({ e164: '+2250707070707', dialCode: '+225', country: 'CI' });
  });

  it.each([
    ['+2250707070707', '+225', 'CI'],
    ['+221771234567', '+221', 'SN'],
    ['+237671234567', '+237', 'CM'],
    ['+33612345678', '+33', 'FR'],
    ['+12015550123', '+1', 'US'],
  ])('gives %s the dial code %s and the country %s', (input, dialCode, country) => {
    expect(parsePhone(input)).toEqual({ e164: input, dialCode, country });
  });

  it.each([
    ['07 07 07 07 07', 'CI', '+2250707070707'],
    ['06 12 34 56 78', 'FR', '+33612345678'],
    ['77 123 45 67', 'SN', '+221771234567'],
    ['+2250707070707', 'FR', '+2250707070707'],
    ['002250707070707', 'FR', '+2250707070707'],
    ['2250707070707', 'FR', '+2250707070707'],
  ])('reads %j with the default country %s as %s', (input, country, e164) => {
    expect(parsePhone(input, country)?.e164).toBe(e164);
  });

  it('refuses a national number that is not one of the default country', () => {
    expect(parsePhone('0707', 'CI')).toBeNull();
  });

  it.each([
    ['an invalid number for its country', '+2251234567890'],
    ['a national number', '0707070707'],
    ['too short', '+22507'],
    ['too short for its country', '+225070707070'],
    ['too long', '+2250707070707070'],
    ['letters', '+22507070707AB'],
    ['an e-mail address', 'user@example.com'],
    ['an empty string', ''],
    ['a lone plus', '+'],
  ])('refuses %s (%j)', (_case, input) => {
    expect(parsePhone(input)).toBeNull();
  });
});

describe('parseEmail', () => {
  const local = 'a'.repeat(64);
  const addressOfLength = (length: number): string =>
    `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(length - 197)}.com`;

  it('lower-cases and trims', () => {
    expect(parseEmail('  John.Doe@Example.COM \n')).toBe('john.doe@example.com');
  });

  it.each([['not-an-email'], ['user@'], ['@example.com'], ['user@localhost'], ['a b@example.com'], ['']])(
    'refuses %j',
    (input) => {
      expect(parseEmail(input)).toBeNull();
    },
  );

  it.each([
    [`${'a'.repeat(64)}@example.com`],
    [`${'a'.repeat(65)}@example.com`],
    [`${'é'.repeat(32)}@example.com`],
    [`${'é'.repeat(33)}@example.com`],
    [`user@${'b'.repeat(63)}.com`],
    [`user@${'b'.repeat(64)}.com`],
    [`user@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`],
    [`user@${'ü'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}.com`],
    ['"quoted@local"@example.com'],
    ['user@[127.0.0.1]'],
    ['user@xn--bcher-kva.example'],
  ])('answers %j as isEmail with its length limits does', (address) => {
    expect(parseEmail(address)).toBe(address.length <= 254 && isEmail(address) ? address : null);
  });

  it('refuses a lone surrogate, which makes isEmail throw', () => {
    expect(parseEmail('\ud800@example.com')).toBeNull();
  });

  it('accepts 254 characters and refuses 255', () => {
    expect(addressOfLength(254)).toHaveLength(254);
    expect(parseEmail(addressOfLength(254))).toBe(addressOfLength(254));
    expect(parseEmail(addressOfLength(255))).toBeNull();
  });
});
