import { generateApiKey, generateOperatorKey, hashApiKey, isApiKeyShaped, isOperatorKeyShaped } from './api-key.js';

describe('generateApiKey', () => {
  it('makes live keys of mk_live_ and 43 base64url characters', () => {
    expect(generateApiKey(false).key).toMatch(/^mk_live_[A-Za-z0-9_-]{43}$/);
  });

  it('makes test keys of mk_test_ and 43 base64url characters', () => {
    expect(generateApiKey(true).key).toMatch(/^mk_test_[A-Za-z0-9_-]{43}$/);
  });

  it('makes operator keys of mk_op_ and 43 base64url characters, which are not account keys', () => {
    const { key, hash } = generateOperatorKey();
    expect(key).toMatch(/^mk_op_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(hashApiKey(key));
    expect(isOperatorKeyShaped(key)).toBe(true);
    expect(isApiKeyShaped(key)).toBe(false);
    expect(isOperatorKeyShaped(generateApiKey(false).key)).toBe(false);
  });

  it('gives the hash and the 12-character prefix of the key', () => {
    const { key, hash, prefix } = generateApiKey(false);
    expect(hash).toBe(hashApiKey(key));
    expect(prefix).toBe(key.slice(0, 12));
  });

  it('never gives the same key twice', () => {
    const keys = new Set(Array.from({ length: 100 }, () => generateApiKey(false).key));
    expect(keys.size).toBe(100);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the key in hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('isApiKeyShaped', () => {
  it('accepts generated keys', () => {
    expect(isApiKeyShaped(generateApiKey(false).key)).toBe(true);
    expect(isApiKeyShaped(generateApiKey(true).key)).toBe(true);
  });

  it.each([
    ['42 characters', `mk_live_${'a'.repeat(42)}`],
    ['44 characters', `mk_live_${'a'.repeat(44)}`],
    ['another prefix', `mk_prod_${'a'.repeat(43)}`],
    ['standard base64', `mk_live_${'a'.repeat(41)}+/`],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
    ['an empty token', ''],
  ])('refuses %s', (_case, token) => {
    expect(isApiKeyShaped(token)).toBe(false);
  });
});
