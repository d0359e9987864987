import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Database } from '../database/database.js';
import { RateLimitRepository } from './rate-limit.repository.js';

/** How long hits may wait in memory before they reach the database, where other instances see them. */
const FLUSH_DELAY_MS = 50;

interface Window {
  bucket: string;
  start: Date;
  /** Every instance's hits, as of this instance's last exchange with the database. */
  stored: number;
  /** This instance's hits not yet stored. */
  pending: number;
}

/**
 * Hit counters per (bucket, window), kept in the database so that all
 * instances count together. Far from the limit, hits are counted in memory
 * and written in batches every 50 ms — one statement per bucket instead of one
 * per request, so that requests do not queue on a counter row. Within half of
 * the limit each hit is written at once and the answer reflects every
 * instance. The first hit of a window reads what other instances counted.
 */
@Injectable()
export class RateLimitCounter implements OnModuleDestroy {
  private readonly windows = new Map<string, Window>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    private readonly counters: RateLimitRepository,
  ) {}

  /** Counts one hit and returns the window's total as best known, this hit included. */
  async hit(bucket: string, start: Date, limit: number): Promise<number> {
    const key = `${bucket}|${start.getTime()}`;
    let window = this.windows.get(key);
    if (!window) {
      this.forgetOlderThan(start);
      window = { bucket, start, stored: 0, pending: 0 };
      this.windows.set(key, window);
      window.stored = await this.database.run((sql) => this.counters.total(sql, bucket, start));
    }
    window.pending++;
    if ((window.stored + window.pending) * 2 < limit) {
      this.scheduleFlush();
      return window.stored + window.pending;
    }
    const hits = window.pending;
    window.pending = 0;
    window.stored = await this.database.run((sql) => this.counters.add(sql, bucket, start, hits));
    return window.stored;
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.timer);
    await this.flush();
  }

  private scheduleFlush(): void {
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_DELAY_MS);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const due = [...this.windows.values()].filter((window) => window.pending > 0);
    if (due.length === 0) return;
    const taken = due.map((window) => window.pending);
    due.forEach((window) => (window.pending = 0));
    this.flushing = this.database
      .transaction(async (sql) => {
        for (const [index, window] of due.entries()) window.stored = await this.counters.add(sql, window.bucket, window.start, taken[index]!);
      })
      .catch(() => {
        // not stored: counted again with the next flush
        due.forEach((window, index) => (window.pending += taken[index]!));
      })
      .finally(() => {
        this.flushing = null;
        if (due.some((window) => window.pending > 0)) this.scheduleFlush();
      });
    await this.flushing;
  }

  private forgetOlderThan(start: Date): void {
    for (const [key, window] of this.windows) {
      if (window.start < start && window.pending === 0) this.windows.delete(key);
    }
  }
}
