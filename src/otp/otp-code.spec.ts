import { generateCode, hashCode, sameHash, type OtpType } from './otp-code.js';

const ALPHABETS: Record<OtpType, string> = {
  numeric: '0123456789',
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
};

function counts(type: OtpType, draws: number): Map<string, number> {
  const seen = new Map<string, number>();
  for (const char of generateCode(type, draws)) seen.set(char, (seen.get(char) ?? 0) + 1);
  return seen;
}

const chiSquare = (seen: Map<string, number>, alphabet: string, draws: number): number => {
  const expected = draws / alphabet.length;
  return [...alphabet].reduce((sum, char) => sum + ((seen.get(char) ?? 0) - expected) ** 2 / expected, 0);
};

describe('generateCode', () => {
  it.each([4, 5, 6])('has the requested length (%i)', (length) => {
    expect(generateCode('numeric', length)).toHaveLength(length);
    expect(generateCode('alphanumeric', length)).toHaveLength(length);
  });

  it('draws numeric codes from 0-9 only', () => {
    for (let i = 0; i < 200; i++) expect(generateCode('numeric', 6)).toMatch(/^[0-9]{6}$/);
  });

  it('draws alphanumeric codes from A-Z and 0-9 only', () => {
    for (let i = 0; i < 200; i++) expect(generateCode('alphanumeric', 6)).toMatch(/^[A-Z0-9]{6}$/);
  });

  it.each(['numeric', 'alphanumeric'] as const)('uses every %s symbol with no visible bias over 20,000 draws', (type) => {
    const alphabet = ALPHABETS[type];
    const seen = counts(type, 20_000);
    expect([...seen.keys()].sort()).toEqual([...alphabet].sort());
    // one-in-a-million critical values: 44.8 for 9 degrees of freedom, 89.9 for 35
    expect(chiSquare(seen, alphabet, 20_000)).toBeLessThan(type === 'numeric' ? 45 : 90);
  });
});

describe('hashCode', () => {
  const secret = 'x'.repeat(32);
  const uniqId = '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10';

  it('is 64 lower-case hex characters', () => {
    expect(hashCode(secret, uniqId, '482913')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic', () => {
    expect(hashCode(secret, uniqId, 'AB12CD')).toBe(hashCode(secret, uniqId, 'AB12CD'));
  });

  it('ignores the case of the code', () => {
    expect(hashCode(secret, uniqId, 'ab12cd')).toBe(hashCode(secret, uniqId, 'AB12CD'));
  });

  it('depends on the uniq_id', () => {
    expect(hashCode(secret, uniqId, '482913')).not.toBe(hashCode(secret, `${uniqId.slice(0, -1)}1`, '482913'));
  });

  it('depends on the secret and the code', () => {
    const hash = hashCode(secret, uniqId, '482913');
    expect(hashCode('y'.repeat(32), uniqId, '482913')).not.toBe(hash);
    expect(hashCode(secret, uniqId, '482914')).not.toBe(hash);
  });
});

describe('sameHash', () => {
  const hash = hashCode('secret', 'id', '1234');

  it('accepts equal hashes', () => {
    expect(sameHash(hash, hashCode('secret', 'id', '1234'))).toBe(true);
  });

  it('refuses different hashes of the same length', () => {
    expect(sameHash(hash, hashCode('secret', 'id', '1235'))).toBe(false);
  });

  it('refuses hashes of different lengths', () => {
    expect(sameHash(hash, hash.slice(0, 62))).toBe(false);
    expect(sameHash(hash, `${hash}00`)).toBe(false);
  });
});
