import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { RateLimitRepository } from './rate-limit.repository.js';

const KEEP_MS = 10 * 60_000;

/** Drops counters of windows long past. */
@Injectable()
export class RateLimitHousekeeping {
  constructor(
    private readonly database: Database,
    private readonly windows: RateLimitRepository,
    private readonly clock: Clock,
  ) {}

  @Interval(5 * 60_000)
  async purge(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - KEEP_MS);
    return this.database.run((sql) => this.windows.purgeBefore(sql, before));
  }
}
