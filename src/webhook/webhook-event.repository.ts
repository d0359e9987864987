import { Injectable } from '@nestjs/common';
import { placeholders, readTime, type Sql } from '../database/sql.js';
import type { Lease } from '../jobs/lease.js';
import { WEBHOOK_ACTIVE } from './account-webhook.repository.js';
import { LeasedTable } from '../jobs/leased-table.js';
import type { AttemptResult } from './webhook-sender.js';

export type WebhookEventState = 'pending' | 'delivered' | 'gone' | 'exhausted' | 'cancelled';

export interface StoredWebhookEvent {
  id: string;
  accountId: string;
  type: string;
  subjectId: string | null;
  sequence: number | null;
  body: string;
  at: Date;
  /** The record's own URL; null: the account's webhook. */
  url: string | null;
}

/** A claimed event; `attempts` counts this attempt. */
export interface ClaimedWebhookEvent extends StoredWebhookEvent {
  attempts: number;
}

interface EventRow {
  id: string;
  account_id: string;
  type: string;
  subject_id: string | null;
  sequence: number | string | null;
  url: string | null;
  body: string;
  attempts: number | string;
  created_at: string | Date;
}

const EVENT_COLUMNS = ['id', 'account_id', 'type', 'subject_id', 'sequence', 'url', 'body', 'state', 'attempts', 'available_at', 'created_at'];
const rowOf = (event: StoredWebhookEvent) => [event.id, event.accountId, event.type, event.subjectId, event.sequence, event.url, event.body, 'pending', 0, event.at, event.at];
const ignoreDuplicate = (sql: Sql) => (sql.dialect === 'mysql' ? ' ON DUPLICATE KEY UPDATE id = id' : ' ON CONFLICT DO NOTHING');

const EVENTS = new LeasedTable('webhook_event', ['id', 'account_id', 'type', 'subject_id', 'sequence', 'url', 'body', 'attempts', 'created_at']);

/** What becomes of an event after an attempt. */
export type EventOutcome = { state: 'pending'; retryAt: Date } | { state: Exclude<WebhookEventState, 'pending'> };

/**
 * The webhook outbox: events written in the transaction of the change they
 * report, claimed like every job table (LeasedTable), settled in place
 * (`available_at` null) and purged after 30 days; and the attempts log.
 */
@Injectable()
export class WebhookEventRepository {
  /**
   * Adds an event for the record's own URL, or for the account's webhook when
   * it is enabled and subscribes to the type (the condition is in the insert,
   * so that nothing is read). A second event for the same (subject, sequence)
   * is ignored: replaying a change does not report it twice.
   */
  async add(sql: Sql, event: StoredWebhookEvent): Promise<void> {
    const values = rowOf(event);
    if (event.url !== null) {
      await sql.later(`INSERT INTO webhook_event (${EVENT_COLUMNS.join(', ')}) VALUES (${placeholders(values)})${ignoreDuplicate(sql)}`, values);
      return;
    }
    await sql.later(
      `INSERT INTO webhook_event (${EVENT_COLUMNS.join(', ')}) SELECT ${placeholders(values)} FROM account_webhook w
        WHERE w.account_id = ? AND ${WEBHOOK_ACTIVE} AND w.events LIKE ?${ignoreDuplicate(sql)}`,
      [...values, event.accountId, `%,${event.type},%`],
    );
  }

  /** `add` for many events: those for a record's own URL in one statement (a duplicate left as it is), the others each as `add`. */
  async addMany(sql: Sql, events: readonly StoredWebhookEvent[]): Promise<void> {
    const own = events.filter((event) => event.url !== null);
    if (own.length === 1) await this.add(sql, own[0]!);
    else if (own.length > 1) await sql.insertAllIfAbsent('webhook_event', EVENT_COLUMNS, own.map(rowOf));
    for (const event of events) if (event.url === null) await this.add(sql, event);
  }

  async claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<ClaimedWebhookEvent[]> {
    const rows = await EVENTS.claim<EventRow>(sql, lease, now, limit);
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      type: row.type,
      subjectId: row.subject_id,
      sequence: row.sequence === null ? null : Number(row.sequence),
      url: row.url,
      body: row.body,
      at: readTime(row.created_at),
      attempts: Number(row.attempts) + 1,
    }));
  }

  renew(sql: Sql, ids: string[], lease: Lease, now: Date): Promise<number> {
    return EVENTS.renew(sql, ids, lease, now);
  }

  /**
   * Records the attempts of a batch and what becomes of their events, while this instance still holds them: the
   * attempts in multi-row inserts, the settled events one statement per outcome (a rescheduled one each).
   */
  async settle(sql: Sql, settled: ReadonlyArray<{ event: ClaimedWebhookEvent; url: string; result: AttemptResult; outcome: EventOutcome }>, owner: string, at: Date) {
    await sql.insertManyLater(
      'webhook_attempt',
      settled.map(({ event, url, result }) => ({
        event_id: event.id,
        n: event.attempts,
        url: url.slice(0, 2048),
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        body: result.body.slice(0, 256),
        at,
      })),
    );
    await this.finish(sql, settled.map(({ event, outcome }) => ({ id: event.id, outcome })), owner);
  }

  /**
   * Reschedules claimed events for every instance, or settles them (keeping who settled them); also events dropped
   * without an attempt (their webhook was removed or disabled).
   */
  async finish(sql: Sql, events: ReadonlyArray<{ id: string; outcome: EventOutcome }>, owner: string): Promise<void> {
    const settled = new Map<string, string[]>();
    for (const { id, outcome } of events) {
      if (outcome.state === 'pending') {
        await sql.later("UPDATE webhook_event SET state = 'pending', available_at = ?, claimed_by = NULL WHERE id = ? AND claimed_by = ?", [
          outcome.retryAt,
          id,
          owner,
        ]);
      } else settled.set(outcome.state, [...(settled.get(outcome.state) ?? []), id]);
    }
    for (const [state, ids] of settled) {
      await sql.later(`UPDATE webhook_event SET state = ?, available_at = NULL WHERE id IN (${placeholders(ids)}) AND claimed_by = ?`, [state, ...ids, owner]);
    }
  }

  /** The latest event about a record of the account: the one a resend queues again. */
  async latestFor(sql: Sql, accountId: string, subjectId: string, now: Date): Promise<{ id: string; inFlight: boolean } | null> {
    const row = await sql.get<{ id: string; claimed_by: string | null; available_at: string | Date | null }>(
      `SELECT id, claimed_by, available_at FROM webhook_event WHERE subject_id = ? AND account_id = ?
        ORDER BY sequence DESC LIMIT 1${sql.forUpdate}`,
      [subjectId, accountId],
    );
    if (!row) return null;
    // claimed, and the claim has not run out: an attempt is being made
    return { id: row.id, inFlight: row.claimed_by !== null && row.available_at !== null && readTime(row.available_at) > now };
  }

  /** Queues a settled or waiting event again from its first attempt, with the same id (receivers deduplicate on it). */
  async requeue(sql: Sql, id: string, now: Date): Promise<void> {
    await sql.run("UPDATE webhook_event SET state = 'pending', attempts = 0, available_at = ?, claimed_by = NULL WHERE id = ?", [now, id]);
  }

  /** Drops settled events older than `before` (their ids are UUID v7, so the age is a key range). */
  purgeSettled(sql: Sql, beforeId: string): Promise<number> {
    return sql.run('DELETE FROM webhook_event WHERE id < ? AND available_at IS NULL', [beforeId]);
  }

  purgeAttempts(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM webhook_attempt WHERE at < ?', [before]);
  }
}
