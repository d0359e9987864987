import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { readTime, type Sql } from '../database/sql.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import type { Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';
import { ConversionTallyRepository } from './conversion-tally.repository.js';
import { conversionChanges, CONVERSION_WINDOW_MS } from './conversion-window.js';
import { FraudBlockRepository, isActive } from './fraud-block.repository.js';
import { FraudBlocks } from './fraud-blocks.service.js';
import { DEFAULT_POLICY, type FraudPolicy } from './fraud-policy.js';
import { FraudStateCache } from './fraud-state.cache.js';
import { FraudStateRepository, scopeKey, type FraudScope } from './fraud-state.repository.js';

export const CONVERSION_QUEUE = 'fraud-conversion';
/** The job runs once a minute, on whichever instance claims it. */
export const CONVERSION_EVERY_MS = 60_000;

/** The job's one row. */
interface ConversionJob {
  id: number;
}

/**
 * The low-conversion signal (SPEC-3 §3), a job of the JobRunner with one row:
 * once a minute one instance claims it, brings its counts up to date from the
 * OTP table (per account and mode, per destination country and per prefix, the
 * codes of the last 24 h whose validity has ended and how many of them were
 * verified; see conversionChanges), and blocks for 6 h each prefix or country
 * of at least `conversion_min_sends` codes of which fewer than
 * `conversion_min_rate` were verified, in the account's conversion mode (a
 * monitor block only records). A run reads the codes that ended since the one
 * before and those that left the 24 hours, not the whole day. The counts, the
 * blocks and the next run commit together under the claim: a run is never
 * done twice, and one cut short by a crash is run again from the start by the
 * next instance, which finds the blocks already made in force.
 */
@Injectable()
export class ConversionWorker implements JobQueue<ConversionJob> {
  readonly name = CONVERSION_QUEUE;
  readonly batchSize = 1;
  readonly leaseMs = 120_000;
  readonly pollMs = 10_000;
  private readonly table = new LeasedTable('fraud_conversion_job', ['id']);

  constructor(
    private readonly database: Database,
    private readonly tallies: ConversionTallyRepository,
    private readonly states: FraudStateRepository,
    private readonly blocks: FraudBlockRepository,
    private readonly imposer: FraudBlocks,
    private readonly cache: FraudStateCache,
    private readonly clock: Clock,
    jobs: JobRunner,
  ) {
    jobs.register(this);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<ConversionJob[]> {
    return this.table.claim(sql, lease, now, limit);
  }

  async renew(sql: Sql, jobs: ConversionJob[], lease: Lease, now: Date): Promise<void> {
    await this.table.renew(sql, jobs.map((job) => job.id), lease, now);
  }

  /** A run this instance failed is run again at once by whichever instance claims it. */
  async release(sql: Sql, jobs: ConversionJob[], lease: Lease, now: Date): Promise<void> {
    await this.table.release(sql, jobs.map((job) => job.id), lease.owner, now);
  }

  async process(jobs: ConversionJob[], lease: Lease): Promise<void> {
    const now = this.clock.now();
    const job = jobs[0]!.id;
    const countedTo = await this.database.run((sql) => this.countedTo(sql, job));
    const changes = conversionChanges(countedTo, now);
    const [joining, leaving] = await Promise.all([
      changes ? this.tallies.codes(changes.joining) : [],
      changes?.leaving ? this.tallies.codes(changes.leaving) : [],
    ]);
    const blocked = await this.database.transaction(async (sql) => {
      await this.table.hold(sql, this.name, job, lease, now);
      if (changes) await this.tallies.change(sql, joining, leaving);
      const policies = new Map((await this.states.storedPolicies(sql)).map((stored) => [scopeKey(stored), stored.policy]));
      const policyOf = (scope: FraudScope): FraudPolicy => policies.get(scopeKey(scope)) ?? DEFAULT_POLICY;
      const fewest = Math.min(...[DEFAULT_POLICY, ...policies.values()].map((policy) => policy.thresholds.conversion_min_sends));
      const made: FraudScope[] = [];
      for (const tally of await this.tallies.atLeast(sql, fewest)) {
        const policy = policyOf(tally);
        if (policy.modes.conversion === 'off' || tally.sent < policy.thresholds.conversion_min_sends || tally.verified / tally.sent >= policy.thresholds.conversion_min_rate) continue;
        const latest = await this.blocks.latest(sql, tally, tally.scope, tally.value, 'low_conversion');
        // in force, or lifted by hand since the codes it would judge were sent
        if (latest && (isActive(latest, now) || (latest.liftedAt !== null && latest.liftedAt.getTime() > now.getTime() - CONVERSION_WINDOW_MS))) continue;
        const mode = policy.modes.conversion === 'enforce' ? 'enforce' : 'monitor';
        const { created } = await this.imposer.impose(sql, tally, { scope: tally.scope, value: tally.value, reason: 'low_conversion', mode }, now);
        if (created) made.push({ accountId: tally.accountId, sandbox: tally.sandbox });
      }
      await sql.run('UPDATE fraud_conversion_job SET available_at = ?, claimed_by = NULL, counted_to = ? WHERE id = ?', [
        new Date(now.getTime() + CONVERSION_EVERY_MS),
        changes ? now : countedTo,
        job,
      ]);
      return made;
    });
    await Promise.all(blocked.map((scope) => this.cache.changed(scope)));
  }

  /** The time up to which the counts were brought (null before the first run). */
  private async countedTo(sql: Sql, job: number): Promise<Date | null> {
    const row = await sql.get<{ counted_to: string | Date | null }>('SELECT counted_to FROM fraud_conversion_job WHERE id = ?', [job]);
    return readTime(row?.counted_to ?? null);
  }
}
