import { readTime, toSqliteTime } from './sql.js';

describe('toSqliteTime', () => {
  const iso = (date: Date) => date.toISOString().slice(0, 23).replace('T', ' ');

  it('writes UTC with milliseconds, as toISOString does', () => {
    expect(toSqliteTime(new Date('2026-11-23T08:05:09.007Z'))).toBe('2026-11-23 08:05:09.007');
    expect(toSqliteTime(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31 23:59:59.999');
    expect(toSqliteTime(new Date(0))).toBe('1970-01-01 00:00:00.000');
    expect(toSqliteTime(new Date(-1))).toBe('1969-12-31 23:59:59.999');
  });

  it('agrees with toISOString on times spread over a century, in any order', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5_000; i++) {
      const date = new Date(Math.floor(random() * 3e12) - 5e11);
      expect(toSqliteTime(date)).toBe(iso(date));
    }
  });

  it('reads back what it wrote', () => {
    const date = new Date('2027-03-01T00:00:00.001Z');
    expect(readTime(toSqliteTime(date)).getTime()).toBe(date.getTime());
  });
});
