import { pooledRandomByte, pooledRandomBytes } from './random-pool.js';

describe('pooled random bytes', () => {
  it('hands out buffers of their own, never the same bytes twice, across refills', () => {
    const seen = new Set<string>();
    const drawn: Buffer[] = [];
    for (let i = 0; i < 2_000; i++) {
      const iv = pooledRandomBytes(12);
      expect(iv).toHaveLength(12);
      seen.add(iv.toString('hex'));
      drawn.push(iv);
    }
    expect(seen.size).toBe(2_000);
    const copy = Buffer.from(drawn[0]!);
    for (let i = 0; i < 5_000; i++) pooledRandomBytes(12);
    expect(drawn[0]).toEqual(copy);
  });

  it('spreads single bytes over their whole range', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 256 * 200; i++) counts[pooledRandomByte()]!++;
    expect(Math.min(...counts)).toBeGreaterThan(100);
    expect(Math.max(...counts)).toBeLessThan(320);
  });

  it('refuses more than a small value at a time', () => {
    expect(() => pooledRandomBytes(65)).toThrow(RangeError);
  });
});
