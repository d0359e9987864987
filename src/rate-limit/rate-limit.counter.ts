import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { RateLimitRepository } from './rate-limit.repository.js';

/** The most hits one lease takes, so that an instance holds back little of a large limit. */
const MAX_LEASE = 256;

export interface Quota {
  allowed: boolean;
  /** What is left of the limit, as far as this instance knows. */
  remaining: number;
}

interface Window {
  /** Every instance's hits and leases, as of this instance's last lease. */
  stored: number;
  /** Hits this instance has leased and not yet let through. */
  leased: number;
  /** The stored total has reached the limit: nothing more can be leased in this window. */
  exhausted: boolean;
  /** The lease in flight, which every hit that finds none left waits for. */
  leasing: Promise<void> | null;
}

/**
 * Hit counters per (bucket, fixed window), kept in the database so that every
 * instance counts against one limit. An instance leases hits in blocks: one
 * statement adds the block to the stored total, and the block's share below
 * the limit is let through from memory. Blocks shrink to a single hit as the
 * total nears the limit. Leases cover disjoint ranges of the stored total, so
 * no more than `limit` hits pass across all instances; what an instance has
 * leased and not used is at most an eighth of what was left.
 */
@Injectable()
export class RateLimitCounter {
  /** Windows by start, then by bucket; only the current start is kept. */
  private readonly windows = new Map<number, Map<string, Window>>();

  constructor(
    private readonly database: Database,
    private readonly counters: RateLimitRepository,
  ) {}

  async take(bucket: string, start: Date, limit: number): Promise<Quota> {
    const window = this.windowOf(bucket, start);
    while (window.leased === 0 && !window.exhausted) {
      window.leasing ??= this.lease(window, bucket, start, limit).finally(() => (window.leasing = null));
      await window.leasing;
    }
    if (window.leased === 0) return { allowed: false, remaining: 0 };
    window.leased--;
    return { allowed: true, remaining: Math.max(0, limit - window.stored) + window.leased };
  }

  private async lease(window: Window, bucket: string, start: Date, limit: number): Promise<void> {
    const size = Math.min(MAX_LEASE, Math.max(1, Math.floor((limit - window.stored) / 8)));
    // a transaction, so that a lost Galera certification is retried like a deadlock
    const stored = await this.database.transaction((sql) => this.counters.add(sql, bucket, start, size), { urgent: true });
    const before = stored - size;
    window.stored = Math.max(window.stored, stored);
    window.leased = Math.max(0, Math.min(size, limit - before));
    window.exhausted = stored >= limit;
  }

  private windowOf(bucket: string, start: Date): Window {
    const at = start.getTime();
    let buckets = this.windows.get(at);
    if (!buckets) {
      for (const older of this.windows.keys()) if (older < at) this.windows.delete(older);
      buckets = new Map();
      this.windows.set(at, buckets);
    }
    let window = buckets.get(bucket);
    if (!window) {
      window = { stored: 0, leased: 0, exhausted: false, leasing: null };
      buckets.set(bucket, window);
    }
    return window;
  }
}
