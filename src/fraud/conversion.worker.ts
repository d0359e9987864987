import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { uuidV7Floor } from '../common/ids.js';
import { Database } from '../database/database.js';
import { ReportReads } from '../database/report-reads.js';
import { readBoolean, type Sql } from '../database/sql.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import type { Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';
import { FraudBlockRepository, isActive } from './fraud-block.repository.js';
import { FraudBlocks } from './fraud-blocks.service.js';
import { DEFAULT_POLICY, type FraudPolicy } from './fraud-policy.js';
import { FraudStateCache } from './fraud-state.cache.js';
import { FraudStateRepository, type FraudScope } from './fraud-state.repository.js';
import type { BlockScope } from './fraud-state.js';

export const CONVERSION_QUEUE = 'fraud-conversion';
/** The job runs once a minute, on whichever instance claims it. */
export const CONVERSION_EVERY_MS = 60_000;
const WINDOW_MS = 24 * 3600_000;

/** The job's one row. */
interface ConversionJob {
  id: number;
}

/** A prefix or country of an account whose codes were sent and verified so many times in the window. */
interface Tally extends FraudScope {
  scope: BlockScope;
  value: string;
  sent: number;
  verified: number;
}

interface TallyRow {
  account_id: string;
  is_test: unknown;
  value: string;
  sent: number | string;
  verified: number | string;
}

/**
 * The low-conversion signal (SPEC-3 §3), a job of the JobRunner with one row:
 * once a minute one instance claims it, reads from the OTP table the codes of
 * the last 24 h that are settled (verified, superseded, or expired), by
 * account and mode, per destination country and per prefix, and blocks for 6 h
 * each prefix or country of at least `conversion_min_sends` codes of which
 * fewer than `conversion_min_rate` were verified, in the account's conversion
 * mode (a monitor block only records). The blocks and the next run commit
 * together under the claim: a run is never done twice, and one cut short by
 * a crash is run again from the start by the next instance, which finds the
 * blocks already made in force.
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
    private readonly reports: ReportReads,
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
    const policies = await this.database.run((sql) => this.states.storedPolicies(sql));
    const policyOf = (scope: FraudScope): FraudPolicy =>
      policies.find((stored) => stored.accountId === scope.accountId && stored.sandbox === scope.sandbox)?.policy ?? DEFAULT_POLICY;
    const fewest = Math.min(...[DEFAULT_POLICY, ...policies.map((stored) => stored.policy)].map((policy) => policy.thresholds.conversion_min_sends));
    const low = (await this.tallies(now, fewest)).filter((tally) => {
      const policy = policyOf(tally);
      return policy.modes.conversion !== 'off' && tally.sent >= policy.thresholds.conversion_min_sends && tally.verified / tally.sent < policy.thresholds.conversion_min_rate;
    });
    const blocked = await this.database.transaction(async (sql) => {
      await this.table.hold(sql, this.name, jobs[0]!.id, lease, now);
      const made: FraudScope[] = [];
      for (const tally of low) {
        const latest = await this.blocks.latest(sql, tally, tally.scope, tally.value, 'low_conversion');
        // in force, or lifted by hand since the codes it would judge were sent
        if (latest && (isActive(latest, now) || (latest.liftedAt !== null && latest.liftedAt.getTime() > now.getTime() - WINDOW_MS))) continue;
        const mode = policyOf(tally).modes.conversion === 'enforce' ? 'enforce' : 'monitor';
        const { created } = await this.imposer.impose(sql, tally, { scope: tally.scope, value: tally.value, reason: 'low_conversion', mode }, now);
        if (created) made.push({ accountId: tally.accountId, sandbox: tally.sandbox });
      }
      await sql.run('UPDATE fraud_conversion_job SET available_at = ?, claimed_by = NULL WHERE id = ?', [new Date(now.getTime() + CONVERSION_EVERY_MS), jobs[0]!.id]);
      return made;
    });
    await Promise.all(blocked.map((scope) => this.cache.changed(scope)));
  }

  /** The settled codes of the window and the verified ones, per account, mode and country, and per prefix, where there are at least `fewest`. */
  private async tallies(now: Date, fewest: number): Promise<Tally[]> {
    const read = async (scope: BlockScope): Promise<Tally[]> => {
      const rows = await this.reports.all<TallyRow>(
        `SELECT account_id, is_test, ${scope} AS value, COUNT(*) AS sent, SUM(CASE WHEN status = 'verified' THEN 1 ELSE 0 END) AS verified
           FROM otp
          WHERE uniq_id >= ? AND uniq_id < ? AND ${scope} IS NOT NULL AND (status <> 'pending' OR expires_at <= ?)
          GROUP BY account_id, is_test, ${scope} HAVING COUNT(*) >= ?`,
        [uuidV7Floor(new Date(now.getTime() - WINDOW_MS)), uuidV7Floor(now), now, fewest],
      );
      return rows.map((row) => ({
        accountId: row.account_id,
        sandbox: readBoolean(row.is_test),
        scope,
        value: row.value,
        sent: Number(row.sent),
        verified: Number(row.verified),
      }));
    };
    return [...(await read('country')), ...(await read('prefix'))];
  }
}
