import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { FraudAttemptRepository } from './fraud-attempt.repository.js';
import { FraudBlockRepository } from './fraud-block.repository.js';
import { FraudListRepository } from './fraud-list.repository.js';
import { FRAUD_REASONS } from './fraud-signals.rules.js';
import { VelocityKeyRepository } from './velocity-key.repository.js';

const DAY_MS = 24 * 3600_000;
/** Attempts, and blocks once over, are kept this long (SPEC-3 §3). */
const KEPT_MS = 30 * DAY_MS;

/** Forgets what the guard no longer needs: old attempts and blocks, lapsed list entries, idle velocity keys. */
@Injectable()
export class FraudHousekeeping {
  constructor(
    private readonly database: Database,
    private readonly attempts: FraudAttemptRepository,
    private readonly blocks: FraudBlockRepository,
    private readonly lists: FraudListRepository,
    private readonly velocityKeys: VelocityKeyRepository,
    private readonly clock: Clock,
  ) {}

  @Interval(10 * 60_000)
  async purge(): Promise<{ attempts: number; blocks: number; entries: number; keys: number }> {
    const now = this.clock.now();
    const keptSince = new Date(now.getTime() - KEPT_MS);
    return {
      attempts: await this.database.run((sql) => this.attempts.purgeBefore(sql, keptSince, FRAUD_REASONS)),
      blocks: await this.database.run((sql) => this.blocks.purgeEndedBefore(sql, keptSince)),
      entries: await this.database.run((sql) => this.lists.purgeExpired(sql, now)),
      keys: await this.database.run((sql) => this.velocityKeys.purgeUntouchedSince(sql, new Date(now.getTime() - DAY_MS))),
    };
  }
}
