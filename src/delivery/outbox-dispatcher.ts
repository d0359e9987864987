import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import type { SecretBox } from '../common/crypto/secret-box.js';
import { Database } from '../database/database.js';
import { DeliveryReceipts } from './delivery-receipts.js';
import { DeliveryRecords } from './delivery-records.js';
import { PermanentDeliveryError, TransientDeliveryError } from './delivery-errors.js';
import { EMAIL_PROVIDER, type EmailProvider } from './email-provider.js';
import { renderEmail } from './email-template.js';
import type { EmailPayload, SmsPayload } from './outbox-payload.js';
import { OutboxRepository, type OutboxEntry, type OutboxKind } from './outbox.repository.js';
import { PAYLOAD_BOX } from './payload-box.js';
import { SandboxEmailProvider, SandboxSmsProvider } from './providers/sandbox.providers.js';
import { SMS_PROVIDER, type SmsProvider } from './sms-provider.js';

const BATCH_SIZE = 50;
const POLL_INTERVAL_MS = 1_000;
export const MAX_DELIVERY_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 30_000;

/**
 * Drains the outbox after commit: claims due entries, hands each to its
 * provider, and records the outcome. Hand-over is at-least-once: an entry
 * whose acceptance was not recorded before a crash is offered again when its
 * lease runs out; one recorded as accepted is never sent again.
 */
@Injectable()
export class OutboxDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxDispatcher.name);
  private readonly claimer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running: Promise<void> | null = null;
  private wanted = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  /** Drains run in the dispatcher's own async context, not in that of the request that woke it. */
  private readonly scope = new AsyncResource(OutboxDispatcher.name);

  constructor(
    private readonly database: Database,
    private readonly outbox: OutboxRepository,
    private readonly records: DeliveryRecords,
    private readonly receipts: DeliveryReceipts,
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
    @Inject(SMS_PROVIDER) private readonly smsProvider: SmsProvider,
    @Inject(EMAIL_PROVIDER) private readonly emailProvider: EmailProvider,
    private readonly sandboxSms: SandboxSmsProvider,
    private readonly sandboxEmail: SandboxEmailProvider,
    @Inject(PAYLOAD_BOX) private readonly box: SecretBox,
    @Inject(deliveryConfig.KEY) private readonly config: DeliveryConfig,
  ) {
    smsProvider.onReady?.(() => void this.expedite('sms'));
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming and waits for the entries already claimed to be settled. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Asks for a drain soon; cheap to call after every committed send. */
  wake(): void {
    if (this.stopped) return;
    this.wanted = true;
    if (this.running) return;
    this.running = this.scope.runInAsyncScope(() => this.drain())
      .catch((error: unknown) => this.logger.warn({ err: error }, 'outbox drain interrupted'))
      .finally(() => {
        this.running = null;
        if (this.wanted) this.wake();
      });
  }

  /** Drains until nothing is due, and resolves then. */
  async drainNow(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      let claimed: OutboxEntry[];
      do {
        const now = this.clock.now();
        const leaseUntil = new Date(now.getTime() + this.config.outboxLeaseSeconds * 1000);
        claimed = await this.database.transaction((sql) => this.outbox.claim(sql, this.claimer, now, leaseUntil, BATCH_SIZE));
        await Promise.all(claimed.map((entry) => this.handOver(entry)));
      } while (claimed.length === BATCH_SIZE && !this.stopped);
    }
  }

  private async handOver(entry: OutboxEntry): Promise<void> {
    if (entry.deliverBefore && entry.deliverBefore.getTime() <= this.clock.now().getTime()) {
      await this.fail(entry, null, 'EXPIRED');
      return;
    }
    const provider = entry.kind === 'sms' ? this.smsProviderFor(entry) : this.emailProviderFor(entry);
    let providerIds: string[];
    try {
      providerIds = await this.send(entry);
    } catch (error) {
      await this.onRefusal(entry, provider.name, error);
      return;
    }
    await this.database.transaction(async (sql) => {
      await this.records.for(entry.kind).markSent(sql, entry.recordId, provider.name, providerIds, this.clock.now());
      await this.outbox.remove(sql, entry.id);
    });
    if (entry.kind === 'sms') await this.receipts.applyKept(provider.name, providerIds);
  }

  /** Offers at once the entries of one kind that wait for a retry: their provider is back. */
  async expedite(kind: OutboxKind): Promise<void> {
    await this.database.run((sql) => this.outbox.expedite(sql, kind, this.clock.now()));
    this.wake();
  }

  private async send(entry: OutboxEntry): Promise<string[]> {
    const payload: unknown = JSON.parse(this.box.open(entry.payload));
    if (entry.kind === 'sms') {
      const sms = payload as SmsPayload;
      const accepted = await this.smsProviderFor(entry).submit({
        messageId: entry.recordId,
        validUntil: entry.deliverBefore,
        resume: entry.resume,
        ...sms,
      });
      return accepted.providerIds;
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
    return accepted.providerIds;
  }

  private async onRefusal(entry: OutboxEntry, provider: string, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof PermanentDeliveryError) {
      this.logger.warn({ recordId: entry.recordId, provider, reason }, 'message refused by provider');
      await this.fail(entry, provider, error.providerStatus ?? 'REJECTD');
      return;
    }
    if (entry.attempts >= MAX_DELIVERY_ATTEMPTS) {
      this.logger.warn({ recordId: entry.recordId, provider, reason, attempts: entry.attempts }, 'message retries exhausted');
      await this.fail(entry, provider, null);
      return;
    }
    const retryAt = new Date(this.clock.now().getTime() + backoffMs(entry.attempts));
    this.logger.log({ recordId: entry.recordId, provider, reason, retryAt }, 'message hand-over will be retried');
    await this.database.transaction(async (sql) => {
      await this.records.for(entry.kind).countRetry?.(sql, entry.recordId);
      await this.outbox.retryAt(sql, entry.id, retryAt, reason, error instanceof TransientDeliveryError ? error.resume : entry.resume);
    });
  }

  /** failed, and refunded once: the refund rides on the one update that moved pending → failed. */
  private async fail(entry: OutboxEntry, provider: string | null, providerStatus: string | null): Promise<void> {
    const now = this.clock.now();
    await this.database.transaction(async (sql) => {
      const changed = await this.records.for(entry.kind).markFailed(sql, entry.recordId, provider, providerStatus, now);
      if (changed && !entry.test && entry.amount > 0) {
        await this.ledger.add(sql, entry.accountId, entry.amount, 'refund', entry.recordId, now);
      }
      await this.outbox.remove(sql, entry.id);
    });
  }

  private smsProviderFor(entry: OutboxEntry): SmsProvider {
    return entry.test ? this.sandboxSms : this.smsProvider;
  }

  private emailProviderFor(entry: OutboxEntry): EmailProvider {
    return entry.test ? this.sandboxEmail : this.emailProvider;
  }
}

/** Exponential, from 1 s, capped at 30 s, with ±20 % jitter so that retries spread out. */
function backoffMs(attempts: number): number {
  const base = Math.min(1000 * 2 ** (attempts - 1), MAX_BACKOFF_MS);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
