import { defaultSenderName, isValidSenderName, senderKey } from './sender-name.js';

describe('isValidSenderName', () => {
  it.each([
    ['DEMO'],
    ['MonApp 2024'],
    ['A'],
    ['1234567890A'],
    ['123456789012345'],
    ['1'],
  ])('accepts %j', (name) => {
    expect(isValidSenderName(name)).toBe(true);
  });

  it.each([
    ['12 letters', 'ABCDEFGHIJKL'],
    ['16 digits', '1234567890123456'],
    ['digits and spaces without a letter', '123 456'],
    ['only spaces', '   '],
    ['an empty name', ''],
    ['a leading space', ' DEMO'],
    ['a trailing space', 'DEMO '],
    ['a dash', 'MON-APP'],
    ['an exclamation mark', 'DEMO!'],
    ['a dot', 'demo.ci'],
    ['a line break', 'DE\nMO'],
    ['an accented letter', 'École'],
    ['a non-Latin letter', 'Привет'],
    ['a number with a plus sign', '+2250707070707'],
  ])('refuses %s (%j)', (_case, name) => {
    expect(isValidSenderName(name)).toBe(false);
  });
});

describe('senderKey', () => {
  it('ignores case', () => {
    expect(senderKey('DeMo')).toBe('demo');
    expect(senderKey('DEMO')).toBe(senderKey('demo'));
  });
});

describe('defaultSenderName', () => {
  it.each([
    ['Acme', 'Acme'],
    ['Acme & Co.', 'AcmeCo'],
    ['Société Générale SA', 'SocieteGene'],
    ['A1 Telecom', 'A1Telecom'],
  ])('makes %j into %j', (accountName, sender) => {
    expect(defaultSenderName(accountName)).toBe(sender);
    expect(isValidSenderName(defaultSenderName(accountName))).toBe(true);
  });

  it.each([[''], ['123 456'], ['!!!'], ['Привет']])('falls back to INFO for %j', (accountName) => {
    expect(defaultSenderName(accountName)).toBe('INFO');
  });
});
