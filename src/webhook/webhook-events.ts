import { Injectable, type Type } from '@nestjs/common';
import { newId } from '../common/ids.js';
import type { Sql } from '../database/sql.js';
import { JobRunner } from '../jobs/job-runner.js';
import { WEBHOOK_API_VERSION, type WebhookEventType } from './webhook-event-types.js';
import { WebhookEventRepository, type StoredWebhookEvent } from './webhook-event.repository.js';

export interface WebhookEventInput {
  accountId: string;
  type: WebhookEventType;
  /** The event's `data`, as receivers get it. */
  data: object;
  /** When the change happened (the application clock). */
  at: Date;
  /** The record's own callback URL, which then gets this event alone; absent: the account's webhook, if it subscribes to `type`. */
  url?: string | null;
  /** The record the event reports on and its change number: a change replayed is reported once. */
  subjectId?: string;
  sequence?: number;
}

/** The dispatcher's queue name, for `JobRunner.wake` and tests. */
export const WEBHOOK_QUEUE = 'webhook';

/** After a commit the dispatcher is woken this soon; its poll catches what a wake missed. */
const WAKE_DELAY_MS = 5;

/**
 * How every feature reports a change: `emit` inside the transaction that makes
 * the change, so that the event exists exactly when the change does
 * (transactional outbox, delivered at least once):
 *
 *   await this.database.transaction(async (sql) => {
 *     await this.contacts.optOut(sql, …);
 *     await this.webhooks.emit(sql, { accountId, type: 'contact.opted_out', data: { phone, source }, at });
 *   });
 *
 * The write travels with the unit's next statement or its commit; nothing is
 * written when the account's webhook does not subscribe to the type. Each
 * feature describes the bodies of the events it emits (`describe`), for the
 * OpenAPI document: this module knows only the envelope and the delivery.
 */
@Injectable()
export class WebhookEvents {
  private wakeTimer: NodeJS.Timeout | undefined;
  private readonly payloads = new Set<Type>();

  constructor(
    private readonly events: WebhookEventRepository,
    private readonly jobs: JobRunner,
  ) {}

  /** The schemas of the bodies a feature's events are POSTed with. */
  describe(...payloads: Type[]): void {
    for (const payload of payloads) this.payloads.add(payload);
  }

  payloadSchemas(): Type[] {
    return [...this.payloads];
  }

  /** Adds the event to the webhook outbox in the unit of work `sql`; returns its id (the `webhook-id` header). */
  async emit(sql: Sql, event: WebhookEventInput): Promise<string> {
    const [stored] = toStored([event]);
    await this.events.add(sql, stored!);
    this.wakeSoon();
    return stored!.id;
  }

  /** `emit` for the events of a batch (the messages a hand-over settled): those for a record's own URL in one insert. */
  async emitMany(sql: Sql, events: readonly WebhookEventInput[]): Promise<void> {
    if (events.length === 0) return;
    await this.events.addMany(sql, toStored(events));
    this.wakeSoon();
  }

  /**
   * Queues the latest event about a record again, from its first attempt and
   * with the same id; null when there is none, 'in-flight' while an attempt is being made.
   */
  async resendLatest(sql: Sql, accountId: string, subjectId: string, now: Date): Promise<string | 'in-flight' | null> {
    const latest = await this.events.latestFor(sql, accountId, subjectId, now);
    if (!latest) return null;
    if (latest.inFlight) return 'in-flight';
    await this.events.requeue(sql, latest.id, now);
    this.wakeSoon();
    return latest.id;
  }

  /** Wakes the dispatcher shortly, once the emitting unit has most likely committed. */
  private wakeSoon(): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.jobs.wake(WEBHOOK_QUEUE);
    }, WAKE_DELAY_MS);
    this.wakeTimer.unref();
  }
}

function toStored(events: readonly WebhookEventInput[]): StoredWebhookEvent[] {
  return events.map((event) => {
    const id = newId(event.at);
    return {
      id,
      accountId: event.accountId,
      type: event.type,
      subjectId: event.subjectId ?? null,
      sequence: event.sequence ?? null,
      url: event.url ?? null,
      body: JSON.stringify({ id, type: event.type, created_at: event.at.toISOString(), api_version: WEBHOOK_API_VERSION, data: event.data }),
      at: event.at,
    };
  });
}
