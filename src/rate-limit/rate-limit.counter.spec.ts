import { jest } from '@jest/globals';
import type { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { RateLimitCounter } from './rate-limit.counter.js';
import type { RateLimitRepository } from './rate-limit.repository.js';

const WINDOW = new Date('2026-01-01T00:00:00Z');

const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 4));

/** One shared table of counters, whose statements take a random time to reach it and to come back. */
class SlowCounters {
  readonly hits = new Map<string, number>();

  async add(_sql: Sql, bucket: string, start: Date, hits: number): Promise<number> {
    await pause();
    const key = `${bucket}|${start.toISOString()}`;
    const total = (this.hits.get(key) ?? 0) + hits;
    this.hits.set(key, total);
    await pause();
    return total;
  }
}

const database = {
  transaction: (work: (sql: Sql) => Promise<unknown>) => work({} as Sql),
} as unknown as Database;

const instance = (table: SlowCounters) => new RateLimitCounter(database, table as unknown as RateLimitRepository);

/** Fires `requests` hits spread over the instances, a few at a time, and returns how many were let through. */
async function admitted(instances: RateLimitCounter[], limit: number, requests: number): Promise<number> {
  const quotas = await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, Math.floor(i / 4) * 3));
      return instances[i % instances.length]!.take('credential:k', WINDOW, limit);
    }),
  );
  return quotas.filter((quota) => quota.allowed).length;
}

describe(RateLimitCounter.name, () => {
  it.each([1, 2, 5, 10, 37, 300])('lets exactly %i of many simultaneous hits through', async (limit) => {
    expect(await admitted([instance(new SlowCounters())], limit, 2 * limit + 20)).toBe(limit);
  });

  it.each([5, 20, 300])('lets no more than %i through across three instances sharing the counters', async (limit) => {
    const table = new SlowCounters();

    const passed = await admitted([instance(table), instance(table), instance(table)], limit, 3 * limit);

    expect(passed).toBeLessThanOrEqual(limit);
    // what an instance leased and did not use is at most an eighth of what was left
    expect(passed).toBeGreaterThanOrEqual(limit - 3 * Math.floor(limit / 8));
  });

  it('leases hits in blocks far from the limit, one statement per block', async () => {
    const table = new SlowCounters();
    const counter = instance(table);
    const add = jest.spyOn(table, 'add');

    const quotas = await Promise.all(Array.from({ length: 100 }, () => counter.take('credential:k', WINDOW, 60_000)));

    expect(quotas.every((quota) => quota.allowed)).toBe(true);
    expect(add).toHaveBeenCalledTimes(1);
    expect(Math.min(...quotas.map((quota) => quota.remaining))).toBe(60_000 - 100);
  });

  it('refuses from memory once the limit is reached, without writing again', async () => {
    const table = new SlowCounters();
    const counter = instance(table);
    for (let i = 0; i < 3; i++) expect(await counter.take('credential:k', WINDOW, 3)).toEqual({ allowed: true, remaining: 2 - i });
    const add = jest.spyOn(table, 'add');

    expect(await counter.take('credential:k', WINDOW, 3)).toEqual({ allowed: false, remaining: 0 });
    expect(add).not.toHaveBeenCalled();
  });

  it('counts each window on its own', async () => {
    const counter = instance(new SlowCounters());
    const next = new Date(WINDOW.getTime() + 60_000);
    await counter.take('credential:k', WINDOW, 1);

    expect((await counter.take('credential:k', WINDOW, 1)).allowed).toBe(false);
    expect((await counter.take('credential:k', next, 1)).allowed).toBe(true);
  });

  it('answers a failed write with the error, and leases again on the next hit', async () => {
    const table = new SlowCounters();
    const counter = instance(table);
    jest.spyOn(table, 'add').mockRejectedValueOnce(new Error('database unreachable'));

    await expect(counter.take('credential:k', WINDOW, 1)).rejects.toThrow('database unreachable');
    expect(await counter.take('credential:k', WINDOW, 1)).toEqual({ allowed: true, remaining: 0 });
  });
});
