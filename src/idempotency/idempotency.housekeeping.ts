import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** Drops records whose 24 hours are over. */
@Injectable()
export class IdempotencyHousekeeping {
  constructor(
    private readonly database: Database,
    private readonly records: IdempotencyRepository,
    private readonly clock: Clock,
  ) {}

  @Interval(10 * 60_000)
  purge(): Promise<number> {
    return this.database.run((sql) => this.records.purgeExpired(sql, this.clock.now()));
  }
}
