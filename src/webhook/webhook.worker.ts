import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { webhookConfig, type WebhookConfig } from '../config/webhook.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import type { Lease } from '../jobs/lease.js';
import { AccountWebhookRepository, type AccountWebhook } from './account-webhook.repository.js';
import { nextAttemptDelayMs } from './retry-schedule.js';
import { WEBHOOK_QUEUE } from './webhook-events.js';
import { WebhookEventRepository, type ClaimedWebhookEvent, type EventOutcome } from './webhook-event.repository.js';
import { signatureHeader } from './webhook-secrets.js';
import { WebhookSecretService } from './webhook-secret.service.js';
import { WebhookSender, type AttemptResult } from './webhook-sender.js';
import { WebhookSubjects } from './webhook-subjects.js';

export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');

/** An account webhook that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

const USER_AGENT = 'MessagingOtp-Webhooks/1';

type Attempt =
  | { event: ClaimedWebhookEvent; kind: 'sent'; url: string; result: AttemptResult; outcome: EventOutcome; account: boolean }
  | { event: ClaimedWebhookEvent; kind: 'dropped' };

/**
 * The webhook outbox's job queue, on every instance: claims due events with a
 * lease (renewed while the batch is in hand, so that no other instance tries
 * the same event in the same attempt window), POSTs each one signed, and
 * records the attempts of the batch in one transaction. Delivery is
 * at-least-once, every attempt with the event's id as `webhook-id`: an attempt
 * whose outcome was not recorded before a crash is made again once the lease
 * runs out.
 */
@Injectable()
export class WebhookWorker implements JobQueue<ClaimedWebhookEvent>, OnApplicationShutdown {
  readonly name = WEBHOOK_QUEUE;
  readonly batchSize = 50;
  /** The next batch is claimed while the outcomes of the one before are written: a fan-out waits on commits more than on the cores. */
  readonly batchesInHand = 2;
  readonly pollMs = 500;
  /** Twice an attempt's longest time, renewed while a batch is in hand: an instance that died is taken over soon after. */
  readonly leaseMs: number;
  private readonly logger = new Logger(WebhookWorker.name);

  constructor(
    private readonly database: Database,
    private readonly events: WebhookEventRepository,
    private readonly webhooks: AccountWebhookRepository,
    private readonly secrets: WebhookSecretService,
    private readonly subjects: WebhookSubjects,
    private readonly clock: Clock,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(webhookConfig.KEY) private readonly config: WebhookConfig,
    jobs: JobRunner,
  ) {
    this.leaseMs = Math.max(5_000, 2 * config.timeoutMs);
    jobs.register(this);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<ClaimedWebhookEvent[]> {
    return this.events.claim(sql, lease, now, limit);
  }

  async renew(sql: Sql, events: ClaimedWebhookEvent[], lease: Lease, now: Date): Promise<void> {
    await this.events.renew(
      sql,
      events.map((event) => event.id),
      lease,
      now,
    );
  }

  async process(events: ClaimedWebhookEvent[], lease: Lease): Promise<void> {
    const webhooks = await this.accountWebhooks(events);
    const attempts = await Promise.all(events.map((event) => this.attempt(event, webhooks.get(event.accountId) ?? null)));
    const at = this.clock.now();
    await this.database.transaction((sql) => this.record(sql, attempts, lease.owner, at));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }

  /** The webhooks of the batch's accounts, each with a secret (an account signing for the first time gets one). */
  private async accountWebhooks(events: ClaimedWebhookEvent[]): Promise<Map<string, AccountWebhook>> {
    const accountIds = [...new Set(events.map((event) => event.accountId))];
    let found = await this.database.run((sql) => this.webhooks.findMany(sql, accountIds));
    const unsigned = accountIds.filter((id) => !found.some((webhook) => webhook.accountId === id && webhook.secret));
    if (unsigned.length > 0) {
      await this.database.transaction(async (sql) => {
        for (const accountId of unsigned) await this.secrets.ensureIn(sql, accountId);
      });
      found = await this.database.run((sql) => this.webhooks.findMany(sql, accountIds));
    }
    return new Map(found.map((webhook) => [webhook.accountId, webhook]));
  }

  /** Makes one attempt; decides what becomes of the event, without writing yet. */
  private async attempt(event: ClaimedWebhookEvent, webhook: AccountWebhook | null): Promise<Attempt> {
    const account = event.url === null;
    const url = event.url ?? webhook?.url ?? null;
    // the account's webhook was removed, disabled or unsubscribed since the event was written
    if (url === null || webhook === null || (account && (webhook.disabledAt !== null || !webhook.events.includes(event.type)))) {
      return { event, kind: 'dropped' };
    }
    const timestamp = new Date(); // the receiver compares it with its own clock: the wall clock of this attempt
    const result = await this.sender.post({
      url,
      body: event.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signatureHeader(this.secrets.live(webhook, this.clock.now()), event.id, timestamp, event.body),
        'webhook-event': event.type,
      },
    });
    return { event, kind: 'sent', url, result, outcome: this.outcomeOf(event, result), account };
  }

  private outcomeOf(event: ClaimedWebhookEvent, result: AttemptResult): EventOutcome {
    const status = result.statusCode;
    if (status !== null && status >= 200 && status < 300) return { state: 'delivered' };
    if (status === 410) return { state: 'gone' };
    if (event.attempts >= this.config.maxAttempts) return { state: 'exhausted' };
    return { state: 'pending', retryAt: new Date(this.clock.now().getTime() + nextAttemptDelayMs(event.attempts, result.retryAfterMs)) };
  }

  /** The batch's attempts and outcomes, in one unit of work; an account's webhook marked once per run of like outcomes. */
  private async record(sql: Sql, attempts: Attempt[], owner: string, at: Date): Promise<void> {
    const sent = attempts.filter((attempt) => attempt.kind === 'sent');
    await this.events.settle(sql, sent, owner, at);
    await this.events.finish(
      sql,
      attempts.filter((attempt) => attempt.kind === 'dropped').map(({ event }) => ({ id: event.id, outcome: { state: 'cancelled' } as const })),
      owner,
    );
    const lastOutcome = new Map<string, boolean>();
    for (const attempt of sent) {
      const { event, outcome } = attempt;
      if (event.subjectId) await this.subjects.for(event.type)?.recordResponse(sql, event.subjectId, webhookResponse(attempt, at));
      if (!attempt.account) continue;
      const delivered = outcome.state === 'delivered';
      if (lastOutcome.get(event.accountId) !== delivered) {
        if (delivered) await this.webhooks.succeeded(sql, event.accountId);
        else await this.webhooks.failed(sql, event.accountId, at, new Date(at.getTime() - DISABLE_AFTER_MS));
        lastOutcome.set(event.accountId, delivered);
      }
      if (outcome.state === 'exhausted') this.logger.warn({ eventId: event.id, accountId: event.accountId }, 'webhook event exhausted its attempts');
    }
  }
}

/** The last attempt as `webhook_response` shows it: compact JSON, at most 1 KiB. */
function webhookResponse(attempt: Extract<Attempt, { kind: 'sent' }>, at: Date): string {
  const { event, result, outcome } = attempt;
  return JSON.stringify({
    event_id: event.id,
    type: event.type,
    attempt: event.attempts,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    at: at.toISOString(),
    error: result.error,
    exhausted: outcome.state === 'exhausted' || outcome.state === 'gone',
    body: result.body,
  });
}
