import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { Metrics } from '../metrics/metrics.js';
import type { AttemptMode } from './fraud-attempt.repository.js';
import { FraudBlockRepository } from './fraud-block.repository.js';
import { BLOCK_SCOPES } from './fraud-state.js';

/** The guard's series on /metrics: its attempts by reason and mode, and the blocks in force by scope. */
@Injectable()
export class FraudMetrics implements OnModuleInit {
  private readonly attempts: Counter<'reason' | 'mode'>;

  constructor(
    private readonly metrics: Metrics,
    private readonly database: Database,
    private readonly blocks: FraudBlockRepository,
    private readonly clock: Clock,
  ) {
    this.attempts = new Counter({
      name: 'otp_fraud_attempts_total',
      help: 'OTP sends the fraud guard refused (blocked) or let through and recorded (monitored), by reason',
      labelNames: ['reason', 'mode'] as const,
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    this.metrics.gauge(
      'fraud_blocks_active',
      'Temporary fraud blocks in force across accounts, by scope (prefix, country)',
      async (set) => {
        const counts = await this.database.run((sql) => this.blocks.countActive(sql, this.clock.now()));
        for (const scope of BLOCK_SCOPES) set(counts.find((count) => count.scope === scope)?.blocks ?? 0, { scope });
      },
      ['scope'],
    );
  }

  /** A send refused or let through with these signals (whether or not its attempt was written, see MonitoredRecords). */
  counted(mode: AttemptMode, findings: ReadonlyArray<{ reason: string }>): void {
    for (const { reason } of findings) this.attempts.inc({ reason, mode });
  }
}
