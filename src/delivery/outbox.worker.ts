import { Inject, Injectable, Logger } from '@nestjs/common';
import { LedgerRepository, type ChargedFor } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import type { SecretBox } from '../common/crypto/secret-box.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { backoffMs } from '../jobs/backoff.js';
import { JobRunner } from '../jobs/job-runner.js';
import type { Lease } from '../jobs/lease.js';
import { Metrics } from '../metrics/metrics.js';
import { DeliveryReceipts } from './delivery-receipts.js';
import { DeliveryRecords } from './delivery-records.js';
import { PermanentDeliveryError, TransientDeliveryError } from './delivery-errors.js';
import { EMAIL_PROVIDER, type EmailProvider } from './email-provider.js';
import { renderEmail } from './email-template.js';
import type { EmailPayload, SmsPayload } from './outbox-payload.js';
import { OutboxRepository, type OutboxEntry, type OutboxKind } from './outbox.repository.js';
import { PAYLOAD_BOX, readPayload } from './payload-box.js';
import { SandboxEmailProvider, SandboxSmsProvider } from './providers/sandbox.providers.js';
import { SMS_PROVIDER, type SmsProvider } from './sms-provider.js';

export const MAX_DELIVERY_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 30_000;

/** The outbox's lanes, each a job queue of its own: OTPs and other single messages, and those of bulk sends and campaigns. */
export type OutboxLane = 'priority' | 'bulk';
const LANES: readonly OutboxLane[] = ['priority', 'bulk'];

type Outcome =
  | { entry: OutboxEntry; kind: 'sent'; provider: string; providerIds: string[]; retries: number; receiptsExpected: boolean }
  | { entry: OutboxEntry; kind: 'failed'; provider: string | null; providerStatus: string | null }
  | { entry: OutboxEntry; kind: 'retry'; retryAt: Date; reason: string; resume: string | null };

/**
 * The outbox's job queues, one per lane: each hands its claimed entries to
 * their provider, then records the batch's outcomes. The lanes are claimed
 * apart, so that an OTP is handed over at once while a lot of thousands goes
 * out beside it. Hand-over is at-least-once: an entry whose acceptance was not
 * recorded before a crash is offered again when its lease runs out; one
 * recorded as accepted is never sent again.
 */
@Injectable()
export class OutboxWorker {
  static readonly QUEUES: Record<OutboxLane, string> = { priority: 'outbox', bulk: 'outbox-bulk' };
  private readonly logger = new Logger(OutboxWorker.name);

  constructor(
    private readonly database: Database,
    private readonly outbox: OutboxRepository,
    private readonly records: DeliveryRecords,
    private readonly receipts: DeliveryReceipts,
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
    @Inject(SMS_PROVIDER) private readonly smsProvider: SmsProvider,
    @Inject(EMAIL_PROVIDER) private readonly emailProvider: EmailProvider,
    private readonly sandboxSms: SandboxSmsProvider,
    private readonly sandboxEmail: SandboxEmailProvider,
    @Inject(PAYLOAD_BOX) private readonly box: SecretBox,
    @Inject(deliveryConfig.KEY) config: DeliveryConfig,
    private readonly metrics: Metrics,
  ) {
    for (const lane of LANES) {
      jobs.register({
        name: OutboxWorker.QUEUES[lane],
        batchSize: 50,
        pollMs: 1_000,
        leaseMs: config.outboxLeaseSeconds * 1000,
        claim: (sql, lease, now, limit) => this.claim(sql, lease, now, limit, lane),
        process: (entries) => this.process(entries as OutboxEntry[]),
      });
    }
    smsProvider.onReady?.(() => void this.expedite('sms'));
  }

  /** Asks for a hand-over soon in the lane that received work, or in both; cheap to call after every committed send. */
  wake(lane?: OutboxLane): void {
    for (const each of lane ? [lane] : LANES) this.jobs.wake(OutboxWorker.QUEUES[each]);
  }

  /**
   * Claims due entries of a lane; a scheduled message is promoted to pending in
   * the same unit, or its entry dropped if it was cancelled. Claims again in
   * place of the dropped ones, so that a batch short of `limit` still means
   * nothing more is due: the runner stops draining on a short batch, and a
   * cancelled lot must not hold back what is due after it.
   */
  async claim(sql: Sql, lease: Lease, now: Date, limit: number, lane: OutboxLane): Promise<OutboxEntry[]> {
    const kept: OutboxEntry[] = [];
    for (;;) {
      const wanted = limit - kept.length;
      const entries = await this.outbox.claim(sql, lease, now, wanted, lane === 'bulk');
      kept.push(...(await this.withoutCancelled(sql, entries)));
      if (entries.length < wanted || kept.length === limit) return kept;
    }
  }

  /** Promotes the scheduled entries' messages; drops the entries of those cancelled meanwhile. */
  private async withoutCancelled(sql: Sql, entries: OutboxEntry[]): Promise<OutboxEntry[]> {
    const scheduled = entries.filter((entry) => entry.scheduled);
    if (scheduled.length === 0) return entries;
    const dropped = new Set(await this.records.for('sms').promote?.(sql, scheduled.map((entry) => entry.recordId)));
    if (dropped.size === 0) return entries;
    await this.outbox.remove(sql, entries.filter((entry) => dropped.has(entry.recordId)).map((entry) => entry.id));
    return entries.filter((entry) => !dropped.has(entry.recordId));
  }

  async process(entries: OutboxEntry[]): Promise<void> {
    await this.settle(await Promise.all(entries.map((entry) => this.handOver(entry))));
  }

  /** Hands one entry to its provider; decides what becomes of it, without writing yet. */
  private async handOver(entry: OutboxEntry): Promise<Outcome> {
    if (entry.deliverBefore && entry.deliverBefore.getTime() <= this.clock.now().getTime()) {
      return { entry, kind: 'failed', provider: null, providerStatus: 'EXPIRED' };
    }
    const provider = entry.kind === 'sms' ? this.smsProviderFor(entry) : this.emailProviderFor(entry);
    const receiptsExpected = 'sendsReceipts' in provider && provider.sendsReceipts;
    try {
      return { entry, kind: 'sent', provider: provider.name, ...(await this.send(entry)), receiptsExpected };
    } catch (error) {
      return this.refused(entry, provider.name, error);
    }
  }

  /** Records a batch's outcomes in one transaction; a failure is refunded once, riding on the update that made it. */
  private async settle(outcomes: Outcome[]): Promise<void> {
    const now = this.clock.now();
    await this.database.transaction(async (sql) => {
      for (const outcome of outcomes) {
        const { entry } = outcome;
        const records = this.records.for(entry.kind);
        if (outcome.kind === 'retry') {
          await records.countRetry?.(sql, entry.recordId, 1);
          await this.outbox.retryAt(sql, entry.id, outcome.retryAt, outcome.reason, outcome.resume);
          continue;
        }
        if (outcome.kind === 'sent') {
          if (outcome.retries > 0) await records.countRetry?.(sql, entry.recordId, outcome.retries);
          await records.markSent(sql, entry.recordId, outcome.provider, outcome.providerIds, now, outcome.receiptsExpected);
          if (entry.kind === 'sms') await this.smsProviderFor(entry).accepted?.(sql, outcome.providerIds, now);
        } else if (await records.markFailed(sql, entry.recordId, outcome.provider, outcome.providerStatus, now)) {
          if (!entry.test && entry.amount > 0) await this.ledger.add(sql, entry.accountId, entry.amount, 'refund', { type: chargedFor(entry), id: entry.recordId }, now);
        }
      }
      const done = outcomes.filter((outcome) => outcome.kind !== 'retry');
      await this.outbox.remove(sql, done.map(({ entry }) => entry.id));
      for (const kind of new Set(done.map(({ entry }) => entry.kind))) {
        const ids = done.filter(({ entry }) => entry.kind === kind).map(({ entry }) => entry.recordId);
        await this.records.for(kind).settled?.(sql, ids, now);
      }
    });
    const sentIds = new Map<string, string[]>();
    for (const outcome of outcomes) {
      if (outcome.kind !== 'retry') this.metrics.messageStatuses.inc({ kind: outcome.entry.kind, status: outcome.kind });
      if (outcome.kind === 'sent' && outcome.receiptsExpected) {
        sentIds.set(outcome.provider, [...(sentIds.get(outcome.provider) ?? []), ...outcome.providerIds]);
      }
    }
    for (const [provider, providerIds] of sentIds) await this.receipts.applyKept(provider, providerIds);
  }

  /** Offers at once the entries of one kind that wait for a retry: their provider is back. */
  async expedite(kind: OutboxKind): Promise<void> {
    await this.database.run((sql) => this.outbox.expedite(sql, kind, this.clock.now()));
    this.wake();
  }

  private async send(entry: OutboxEntry): Promise<{ providerIds: string[]; retries: number }> {
    const payload = readPayload(this.box, entry.payload);
    if (entry.kind === 'sms') {
      const sms = payload as SmsPayload;
      const accepted = await this.smsProviderFor(entry).submit({
        messageId: entry.recordId,
        validUntil: entry.deliverBefore,
        resume: entry.resume,
        bulk: entry.bulk,
        ...sms,
      });
      return { providerIds: accepted.providerIds, retries: accepted.retries ?? 0 };
    }
    const email = payload as EmailPayload;
    const rendered = renderEmail(email.text, email.language, email.applicationName);
    const accepted = await this.emailProviderFor(entry).send({
      messageId: entry.recordId,
      to: email.to,
      fromName: email.fromName,
      secrets: email.secrets,
      ...rendered,
    });
    return { providerIds: accepted.providerIds, retries: 0 };
  }

  private refused(entry: OutboxEntry, provider: string, error: unknown): Outcome {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof PermanentDeliveryError) {
      this.logger.warn({ recordId: entry.recordId, provider, reason }, 'message refused by provider');
      return { entry, kind: 'failed', provider, providerStatus: error.providerStatus ?? 'REJECTD' };
    }
    if (entry.attempts >= MAX_DELIVERY_ATTEMPTS) {
      this.logger.warn({ recordId: entry.recordId, provider, reason, attempts: entry.attempts }, 'message retries exhausted');
      return { entry, kind: 'failed', provider, providerStatus: null };
    }
    const retryAt = new Date(this.clock.now().getTime() + backoffMs(entry.attempts, 1000, MAX_BACKOFF_MS));
    this.logger.log({ recordId: entry.recordId, provider, reason, retryAt }, 'message hand-over will be retried');
    const resume = error instanceof TransientDeliveryError && error.resume !== null ? error.resume : entry.resume;
    return { entry, kind: 'retry', retryAt, reason, resume };
  }

  private smsProviderFor(entry: OutboxEntry): SmsProvider {
    return entry.test ? this.sandboxSms : this.smsProvider;
  }

  private emailProviderFor(entry: OutboxEntry): EmailProvider {
    return entry.test ? this.sandboxEmail : this.emailProvider;
  }
}

/** What a failed entry's refund is for: only OTPs, by SMS or e-mail, must be delivered before a deadline (their expiry). */
function chargedFor(entry: OutboxEntry): ChargedFor {
  return entry.kind === 'email' || entry.deliverBefore !== null ? 'otp' : 'sms';
}
