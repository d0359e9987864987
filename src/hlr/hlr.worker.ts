import { Inject, Injectable } from '@nestjs/common';
import { LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { hlrConfig, type HlrConfig } from '../config/hlr.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import type { Lease } from '../jobs/lease.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { WebhookSubjects } from '../webhook/webhook-subjects.js';
import { toHlrLookupDto } from './hlr-dto.mapping.js';
import { HlrLookupRepository, type HlrLookupRecord, type HlrOutcome } from './hlr-lookup.repository.js';
import { HLR_PROVIDER, HlrLookupFailed, SANDBOX_HLR_PROVIDER, type HlrProvider } from './hlr-provider.js';
import { HlrWebhookEventDto } from './dto/hlr-event.dto.js';

export const HLR_QUEUE = 'hlr';

/** Lookups asked at once by one instance. */
const BATCH_SIZE = 20;
/** A lookup claimed this many times without an outcome (its instance kept dying under it) fails, refunded. */
const MAX_ATTEMPTS = 5;
/** Beyond the vendor's calls and their backoff, the time to record the outcome. */
const LEASE_MARGIN_MS = 30_000;

/**
 * The lookup queue, on every instance: claims pending lookups with a lease,
 * asks the provider (the vendor for live keys, SandboxHlrProvider for
 * sandbox keys), then records each outcome in a transaction of its own: the
 * conditional update to `completed` or `failed`, the refund of a failed one
 * and its `hlr.completed` event commit together, once. A lookup whose
 * instance died before recording is asked again when its lease runs out.
 */
@Injectable()
export class HlrWorker implements JobQueue<HlrLookupRecord> {
  readonly name = HLR_QUEUE;
  readonly batchSize = BATCH_SIZE;
  readonly pollMs = 1_000;
  readonly leaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly lookups: HlrLookupRepository,
    private readonly ledger: LedgerRepository,
    private readonly webhooks: WebhookEvents,
    private readonly clock: Clock,
    @Inject(HLR_PROVIDER) private readonly provider: HlrProvider,
    @Inject(SANDBOX_HLR_PROVIDER) private readonly sandboxProvider: HlrProvider,
    @Inject(hlrConfig.KEY) config: HlrConfig,
    subjects: WebhookSubjects,
    jobs: JobRunner,
  ) {
    webhooks.describe(HlrWebhookEventDto);
    this.leaseMs = config.timeoutMs * (config.retries + 1) + LEASE_MARGIN_MS;
    subjects.register('hlr', { recordResponse: (sql, id, response) => this.lookups.recordWebhookResponse(sql, id, response) });
    jobs.register(this);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<HlrLookupRecord[]> {
    return this.lookups.claim(sql, lease, now, limit);
  }

  async renew(sql: Sql, lookups: HlrLookupRecord[], lease: Lease, now: Date): Promise<void> {
    await this.lookups.renew(sql, lookups.map((lookup) => lookup.id), lease, now);
  }

  async process(lookups: HlrLookupRecord[], lease: Lease): Promise<void> {
    await Promise.all(lookups.map(async (lookup) => this.record(lookup, lease, await this.ask(lookup))));
  }

  private async ask(lookup: HlrLookupRecord): Promise<HlrOutcome> {
    const provider = lookup.sandbox ? this.sandboxProvider : this.provider;
    if (lookup.attempts > MAX_ATTEMPTS) return { status: 'failed', provider: provider.name, error: `recherche interrompue ${MAX_ATTEMPTS} fois, abandonnée` };
    try {
      return { status: 'completed', provider: provider.name, answer: await provider.lookup(lookup.number) };
    } catch (error) {
      if (!(error instanceof HlrLookupFailed)) throw error;
      return { status: 'failed', provider: provider.name, error: error.message };
    }
  }

  /** Finishes the lookup once: a lookup finished meanwhile, or taken over by another instance, is left as it is. */
  private async record(lookup: HlrLookupRecord, lease: Lease, outcome: HlrOutcome): Promise<void> {
    await this.database.transaction(async (sql) => {
      const at = this.clock.now();
      if (!(await this.lookups.finish(sql, lookup.id, lease.owner, outcome, at))) return;
      if (outcome.status === 'failed' && lookup.amount > 0) {
        await this.ledger.add(sql, lookup.accountId, lookup.amount, 'refund', { type: 'hlr', id: lookup.id, lot: lookup.lot }, at);
      }
      const finished = (await this.lookups.find(sql, lookup.accountId, lookup.sandbox, lookup.id))!;
      await this.webhooks.emit(sql, {
        accountId: lookup.accountId,
        type: 'hlr.completed',
        data: toHlrLookupDto(finished),
        at,
        url: lookup.webhookUrl,
        subjectId: lookup.id,
        sequence: 1,
      });
    });
  }
}
