import { Inject, Injectable, Logger } from '@nestjs/common';
import { LedgerRepository, type ChargedFor } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { GroupCommit } from '../common/group-commit.js';
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
import { CHUNK_SIZE, ChunkChanges, OutboxChunk, type ChunkDocument } from './outbox-chunk.js';
import type { EmailPayload, SmsPayload } from './outbox-payload.js';
import { OutboxRepository, type ClaimedChunk, type OutboxEntry, type OutboxKind } from './outbox.repository.js';
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
 * The outbox's job queues, one per lane: each hands its claimed messages to
 * their provider one by one, and records each outcome as soon as it is known,
 * with those that come with it. The lanes are claimed apart, so that an OTP is
 * handed over at once while a lot of thousands goes out beside it; the bulk
 * lane claims chunks of lots, whole, and settles their messages each on its
 * own. Hand-over is at-least-once: a message whose acceptance was not recorded
 * before a crash is offered again when its entry's lease runs out; one
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
        // messages: the bulk lane's claims take whole chunks until they hold this many
        batchSize: lane === 'bulk' ? CHUNK_SIZE : 50,
        pollMs: 1_000,
        leaseMs: config.outboxLeaseSeconds * 1000,
        claim: (sql, lease, now, limit) => this.claim(sql, lease, now, limit, lane),
        process: (entries, lease) => this.process(entries as OutboxEntry[], lease),
        renew: (sql, entries, lease, now) => this.outbox.renew(sql, [...new Set((entries as OutboxEntry[]).map((entry) => entry.id))], lease, now),
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
    if (lane === 'bulk') return this.claimChunks(sql, lease, now, limit);
    const kept: OutboxEntry[] = [];
    for (;;) {
      const wanted = limit - kept.length;
      const entries = await this.outbox.claim(sql, lease, now, wanted);
      kept.push(...(await this.withoutCancelled(sql, entries)));
      if (entries.length < wanted || kept.length === limit) return kept;
    }
  }

  /** Claims chunks of the bulk lane until their messages due now make `limit`, or none is left due. */
  private async claimChunks(sql: Sql, lease: Lease, now: Date, limit: number): Promise<OutboxEntry[]> {
    const entries: OutboxEntry[] = [];
    for (;;) {
      const { chunks, more } = await this.outbox.claimChunks(sql, lease, now, limit - entries.length);
      for (const claimed of chunks) entries.push(...(await this.openChunk(sql, claimed, lease.owner, now)));
      if (!more || entries.length >= limit) return entries;
    }
  }

  /**
   * A claimed chunk's messages due now, those of a scheduled one promoted (or
   * dropped if cancelled meanwhile). A chunk with nothing due now is given back
   * until its next message is, or deleted when none is left.
   */
  private async openChunk(sql: Sql, claimed: ClaimedChunk, owner: string, now: Date): Promise<OutboxEntry[]> {
    const { messages } = readPayload(this.box, claimed.payload) as ChunkDocument;
    const chunk = new OutboxChunk(claimed.id, messages, claimed.progress ?? messages.map(() => null));
    const dropped = claimed.scheduled ? await this.dropCancelled(sql, chunk) : 0;
    const due = chunk.due(now, claimed.dueAt);
    chunk.outstanding = due.length;
    if (due.length === 0 || dropped > 0) await this.outbox.saveChunks(sql, [chunk.state(now, due.length === 0)], owner);
    return due.map((index) => chunkEntry(claimed, chunk, index));
  }

  /** Promotes the messages left of a scheduled chunk; those cancelled meanwhile are done with. Returns how many were. */
  private async dropCancelled(sql: Sql, chunk: OutboxChunk): Promise<number> {
    const left = chunk.left();
    if (left.length === 0) return 0;
    const dropped = new Set(await this.records.for('sms').promote?.(sql, left.map((index) => chunk.messages[index]!.recordId)));
    if (dropped.size > 0) chunk.progress = chunk.progress.map((progress, index) => (dropped.has(chunk.messages[index]!.recordId) ? 'done' : progress));
    return dropped.size;
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

  /** Hands a batch over; each outcome is recorded once known, with those that come with it, so that a crash replays only what was in hand. */
  async process(entries: OutboxEntry[], lease: Lease): Promise<void> {
    const settling = new GroupCommit<Outcome>((outcomes) => this.settle(outcomes, lease.owner));
    await Promise.all(entries.map(async (entry) => settling.add(await this.handOver(entry))));
    await settling.drained();
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

  /**
   * Records outcomes in one transaction; a failure is refunded once, riding on
   * the update that made it. A chunk's row notes what became of each of its
   * messages, where this instance still holds it (`owner`).
   */
  private async settle(outcomes: Outcome[], owner: string): Promise<void> {
    const now = this.clock.now();
    let chunks = new ChunkChanges();
    await this.database.transaction(async (sql) => {
      chunks = new ChunkChanges();
      for (const outcome of outcomes) {
        const { entry } = outcome;
        const records = this.records.for(entry.kind);
        if (outcome.kind === 'retry') {
          await records.countRetry?.(sql, entry.recordId, 1);
          if (entry.chunk) chunks.retry(entry.chunk, { attempts: entry.attempts, retryAt: outcome.retryAt.toISOString(), resume: outcome.resume, error: outcome.reason });
          else await this.outbox.retryAt(sql, entry.id, outcome.retryAt, outcome.reason, outcome.resume);
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
      await this.outbox.remove(sql, done.flatMap(({ entry }) => (entry.chunk ? [] : [entry.id])));
      for (const { entry } of done) if (entry.chunk) chunks.done(entry.chunk);
      await this.outbox.saveChunks(sql, chunks.states(now), owner);
      for (const kind of new Set(done.map(({ entry }) => entry.kind))) {
        const ids = done.filter(({ entry }) => entry.kind === kind).map(({ entry }) => entry.recordId);
        await this.records.for(kind).settled?.(sql, ids, now);
      }
    });
    chunks.commit();
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

/** One message of a claimed chunk, as an entry of its own would be claimed. */
function chunkEntry(claimed: ClaimedChunk, chunk: OutboxChunk, index: number): OutboxEntry {
  const message = chunk.messages[index]!;
  const retry = chunk.retryOf(index);
  return {
    id: claimed.id,
    kind: 'sms',
    recordId: message.recordId,
    accountId: claimed.accountId,
    amount: message.amount,
    payload: JSON.stringify(message.payload),
    test: claimed.test,
    deliverBefore: claimed.deliverBefore,
    attempts: (retry?.attempts ?? 0) + 1,
    resume: retry?.resume ?? null,
    scheduled: claimed.scheduled,
    bulk: true,
    chunk: { chunk, index },
  };
}

/** What a failed entry's refund is for: only OTPs, by SMS or e-mail, must be delivered before a deadline (their expiry). */
function chargedFor(entry: OutboxEntry): ChargedFor {
  return entry.kind === 'email' || entry.deliverBefore !== null ? 'otp' : 'sms';
}
