import { Inject, Injectable, Logger } from '@nestjs/common';
import { LedgerRepository, type ChargedFor } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { GroupCommit } from '../common/group-commit.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import type { SecretBox } from '../common/crypto/secret-box.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { backoffMs, longestBackoffMs } from '../jobs/backoff.js';
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
import { SMS_PROVIDER, type SmsAccepted, type SmsProvider } from './sms-provider.js';
import { SubmitLog, type SubmitAttempt } from './submit-log.js';

export const MAX_DELIVERY_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 30_000;

/** The outbox's lanes, each a job queue of its own: OTPs and other single messages, and those of bulk sends and campaigns. */
export type OutboxLane = 'priority' | 'bulk';
const LANES: readonly OutboxLane[] = ['priority', 'bulk'];
/** The OTPs' lane: its claims, renewals and outcomes go before other units waiting for the database (UnitOptions.urgent). */
const isUrgent = (lane: OutboxLane): boolean => lane === 'priority';

/** What every outcome carries: the provider's refusals (`dlr_number_retry`) and the submits, for the message's record. */
interface Tried {
  entry: OutboxEntry;
  retries: number;
  attempts: SubmitAttempt[];
}

type Outcome = Tried &
  (
    | { kind: 'sent'; provider: string; providerIds: string[]; receiptsExpected: boolean }
    | { kind: 'failed'; provider: string | null; providerStatus: string | null }
    /** `counted`: the attempt used up one of the entry's; a wait for a connection does not. */
    | { kind: 'retry'; retryAt: Date; reason: string; resume: string | null; counted: boolean }
  );

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
        // a lot's next chunks are claimed while the last outcomes of the ones before are recorded
        batchesInHand: lane === 'bulk' ? 2 : 1,
        pollMs: 1_000,
        urgent: isUrgent(lane),
        leaseMs: config.outboxLeaseSeconds * 1000,
        claim: (sql, lease, now, limit) => this.claim(sql, lease, now, limit, lane),
        process: (entries, lease) => this.process(entries as OutboxEntry[], lease, lane),
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
    const due = chunk.due(now, claimed.availableAt);
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
  async process(entries: OutboxEntry[], lease: Lease, lane: OutboxLane): Promise<void> {
    const settling = new GroupCommit<Outcome>((outcomes) => this.settle(outcomes, lease.owner, lane));
    await Promise.all(entries.map(async (entry) => settling.add(await this.handOver(entry))));
    await settling.drained();
  }

  /** Hands one entry to its provider; decides what becomes of it, without writing yet. */
  private async handOver(entry: OutboxEntry): Promise<Outcome> {
    const payload = readPayload(this.box, entry.payload) as SmsPayload | EmailPayload;
    const deadline = deadlineOf(entry, payload);
    if (deadline !== null && deadline <= this.clock.now().getTime()) {
      return { entry, retries: 0, attempts: [], kind: 'failed', provider: null, providerStatus: 'EXPIRED' };
    }
    const provider = entry.kind === 'sms' ? this.smsProviderFor(entry) : this.emailProviderFor(entry);
    const log = new SubmitLog(() => this.clock.now());
    try {
      const accepted = await this.send(entry, payload, log);
      return {
        entry,
        retries: log.refusals,
        attempts: log.attempts,
        kind: 'sent',
        provider: accepted.provider ?? provider.name ?? 'unknown',
        providerIds: accepted.providerIds,
        receiptsExpected: accepted.receiptsExpected ?? ('sendsReceipts' in provider && provider.sendsReceipts),
      };
    } catch (error) {
      return this.refused({ entry, retries: log.refusals, attempts: log.attempts }, provider.name, error, deadline);
    }
  }

  /**
   * Records outcomes in one transaction; a failure is refunded once, riding on
   * the update that made it. A chunk's row notes what became of each of its
   * messages, where this instance still holds it (`owner`). Receipts that came
   * for the sent messages before their provider ids were recorded are looked
   * for with the commit, and applied after it.
   */
  private async settle(outcomes: Outcome[], owner: string, lane: OutboxLane): Promise<void> {
    const now = this.clock.now();
    let chunks = new ChunkChanges();
    const sentIds = new Map<string, string[]>();
    for (const outcome of outcomes) {
      if (outcome.kind !== 'sent' || !outcome.receiptsExpected) continue;
      sentIds.set(outcome.provider, [...(sentIds.get(outcome.provider) ?? []), ...outcome.providerIds]);
    }
    const kept = await this.database.transaction(async (sql) => {
      chunks = new ChunkChanges();
      for (const outcome of outcomes) {
        const { entry } = outcome;
        const records = this.records.for(entry.kind);
        if (outcome.retries > 0) await records.countRetry?.(sql, entry.recordId, outcome.retries);
        if (outcome.kind === 'retry') {
          if (entry.chunk) {
            const attempts = outcome.counted ? entry.attempts : entry.attempts - 1;
            chunks.retry(entry.chunk, { attempts, retryAt: outcome.retryAt.toISOString(), resume: outcome.resume, error: outcome.reason });
          } else {
            await this.outbox.retryAt(sql, entry.id, outcome.retryAt, outcome.reason, outcome.resume, outcome.counted);
          }
          continue;
        }
        if (outcome.kind === 'sent') {
          await records.markSent(sql, entry.recordId, outcome.provider, outcome.providerIds, now, outcome.receiptsExpected);
          if (entry.kind === 'sms') await this.smsProviderFor(entry).accepted?.(sql, outcome.providerIds, now, outcome.provider);
        } else if (await records.markFailed(sql, entry.recordId, outcome.provider, outcome.providerStatus, now)) {
          if (!entry.test && entry.amount > 0) await this.ledger.add(sql, entry.accountId, entry.amount, 'refund', { type: chargedFor(entry), id: entry.recordId }, now);
        }
      }
      const tried = outcomes.filter((outcome) => outcome.attempts.length > 0);
      if (tried.length > 0) await this.records.for('sms').recordAttempts?.(sql, tried.map(({ entry, attempts }) => ({ recordId: entry.recordId, attempts })));
      const done = outcomes.filter((outcome) => outcome.kind !== 'retry');
      await this.outbox.remove(sql, done.flatMap(({ entry }) => (entry.chunk ? [] : [entry.id])));
      for (const { entry } of done) if (entry.chunk) chunks.done(entry.chunk);
      await this.outbox.saveChunks(sql, chunks.states(now), owner);
      for (const kind of new Set(done.map(({ entry }) => entry.kind))) {
        const ids = done.filter(({ entry }) => entry.kind === kind).map(({ entry }) => entry.recordId);
        await this.records.for(kind).settled?.(sql, ids, now);
      }
      const waiting: Array<[provider: string, providerIds: string[], any: () => boolean]> = [];
      for (const [provider, providerIds] of sentIds) waiting.push([provider, providerIds, await this.receipts.keptAfterCommit(sql, provider, providerIds)]);
      return waiting;
    }, { urgent: isUrgent(lane) });
    chunks.commit();
    for (const outcome of outcomes) {
      if (outcome.kind !== 'retry') this.metrics.messageStatuses.inc({ kind: outcome.entry.kind, status: outcome.kind });
    }
    for (const [provider, providerIds, any] of kept) if (any()) await this.receipts.applyKept(provider, providerIds);
  }

  /**
   * Offers at once the entries of one kind that wait for a retry: their provider is back. Called from a connection's
   * events, it never throws: entries it could not offer come at their retry time.
   */
  private async expedite(kind: OutboxKind): Promise<void> {
    try {
      await this.database.run((sql) => this.outbox.expedite(sql, kind, this.clock.now(), longestBackoffMs(MAX_BACKOFF_MS)));
    } catch (error) {
      this.logger.warn({ err: error }, 'messages waiting for a connection not expedited; they are offered again at their retry time');
      return;
    }
    this.wake();
  }

  private async send(entry: OutboxEntry, payload: SmsPayload | EmailPayload, log: SubmitLog): Promise<SmsAccepted> {
    if (entry.kind === 'sms') {
      return this.smsProviderFor(entry).submit({
        messageId: entry.recordId,
        accountId: entry.accountId,
        traffic: isOtp(entry) ? 'otp' : 'bulk',
        validUntil: entry.deliverBefore,
        resume: entry.resume,
        bulk: entry.bulk,
        attempts: log,
        ...(payload as SmsPayload),
      });
    }
    const email = payload as EmailPayload;
    const rendered = renderEmail(email.text, email.language, email.applicationName);
    return this.emailProviderFor(entry).send({
      messageId: entry.recordId,
      to: email.to,
      fromName: email.fromName,
      secrets: email.secrets,
      ...rendered,
    });
  }

  /**
   * A refusal for good fails the message. A refusal for now is tried again with backoff, ten attempts at most. A wait
   * for a connection (none could take it, or one was lost under it) uses up no attempt: it is tried again sooner the
   * younger it is, up to every 30 s (and at once when a connection binds), until its deadline fails it.
   */
  private refused(tried: Tried, provider: string | null, error: unknown, deadline: number | null): Outcome {
    const { entry } = tried;
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof PermanentDeliveryError) {
      this.logger.warn({ recordId: entry.recordId, provider: error.provider ?? provider, reason }, 'message refused by provider');
      return { ...tried, kind: 'failed', provider: error.provider ?? provider, providerStatus: error.providerStatus ?? 'REJECTD' };
    }
    const transient = error instanceof TransientDeliveryError ? error : null;
    const counted = transient?.countsAttempt ?? true;
    const resume = transient && transient.resume !== null ? transient.resume : entry.resume;
    if (counted && entry.attempts >= MAX_DELIVERY_ATTEMPTS) {
      this.logger.warn({ recordId: entry.recordId, provider, reason, attempts: entry.attempts }, 'message retries exhausted');
      return { ...tried, kind: 'failed', provider: connectorOf(resume) ?? provider, providerStatus: null };
    }
    const now = this.clock.now().getTime();
    const waited = now - entry.dueAt.getTime();
    const delay = counted ? backoffMs(entry.attempts, 1000, MAX_BACKOFF_MS) : backoffMs(1, Math.min(MAX_BACKOFF_MS, Math.max(1000, waited / 4)), MAX_BACKOFF_MS);
    const retryAt = new Date(deadline === null ? now + delay : Math.min(now + delay, deadline));
    this.logger.log({ recordId: entry.recordId, provider, reason, retryAt }, counted ? 'message hand-over will be retried' : 'message waits for a connection');
    return { ...tried, kind: 'retry', retryAt, reason, resume, counted };
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
    dueAt: claimed.dueAt,
    chunk: { chunk, index },
  };
}

/** Only OTPs, by SMS or e-mail, must be delivered before a deadline of their own (their expiry). */
const isOtp = (entry: OutboxEntry): boolean => entry.kind === 'email' || entry.deliverBefore !== null;

/** What a failed entry's refund is for. */
function chargedFor(entry: OutboxEntry): ChargedFor {
  return isOtp(entry) ? 'otp' : 'sms';
}

/**
 * When waiting for a connection stops and the message fails (ms since the epoch): an OTP's expiry; for another SMS,
 * its validity period counted from when it became due; none for the rest.
 */
function deadlineOf(entry: OutboxEntry, payload: SmsPayload | EmailPayload): number | null {
  if (entry.deliverBefore) return entry.deliverBefore.getTime();
  const minutes = entry.kind === 'sms' ? (payload as SmsPayload).validityMinutes : undefined;
  return minutes ? entry.dueAt.getTime() + minutes * 60_000 : null;
}

/** The connection the parts or the last attempt of a message went through, from its resume state. */
function connectorOf(resume: string | null): string | null {
  return resume ? ((JSON.parse(resume) as { connector?: string | null }).connector ?? null) : null;
}
