import { Injectable } from '@nestjs/common';
import { placeholders, readBoolean, readTime, type Sql } from '../database/sql.js';
import type { Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';

export type OutboxKind = 'sms' | 'email';

export interface NewOutboxEntry {
  kind: OutboxKind;
  /** The record whose delivery state this entry moves (the SMS or the OTP). */
  recordId: string;
  accountId: string;
  /** Hundredths refunded if the message cannot be handed over. */
  amount: number;
  /** Sealed payload: it may hold a code, so it is encrypted at rest. */
  payload: string;
  test: boolean;
  /** After this instant the message is pointless (an expired code) and is failed instead. */
  deliverBefore: Date | null;
  at: Date;
}

export interface OutboxEntry {
  id: number;
  kind: OutboxKind;
  recordId: string;
  accountId: string;
  amount: number;
  payload: string;
  test: boolean;
  deliverBefore: Date | null;
  /** Hand-over attempts so far, this one included. */
  attempts: number;
  /** What an earlier attempt had handed over, for the provider to go on from. */
  resume: string | null;
}

interface OutboxRow {
  id: number | string;
  kind: OutboxKind;
  record_id: string;
  account_id: string;
  amount: number | string;
  payload: string;
  is_test: unknown;
  deliver_before: string | Date | null;
  attempts: number | string;
  resume_state: string | null;
}

const OUTBOX = new LeasedTable('outbox', [
  'id', 'kind', 'record_id', 'account_id', 'amount', 'payload', 'is_test', 'deliver_before', 'attempts', 'resume_state',
]);

/**
 * The durable queue between accepting a message and handing it over, claimed
 * as every job table is (LeasedTable): if its claimer dies the lease runs out
 * and the entry is offered again. It is deleted once settled.
 */
@Injectable()
export class OutboxRepository {
  async add(sql: Sql, entry: NewOutboxEntry): Promise<void> {
    await sql.insertLater('outbox', {
      kind: entry.kind,
      record_id: entry.recordId,
      account_id: entry.accountId,
      amount: entry.amount,
      payload: entry.payload,
      is_test: entry.test,
      deliver_before: entry.deliverBefore,
      attempts: 0,
      available_at: entry.at,
      created_at: entry.at,
    });
  }

  /** Claims up to `limit` due entries; other instances skip the rows this one holds. */
  async claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<OutboxEntry[]> {
    const rows = await OUTBOX.claim<OutboxRow>(sql, lease, now, limit);
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      recordId: row.record_id,
      accountId: row.account_id,
      amount: Number(row.amount),
      payload: row.payload,
      test: readBoolean(row.is_test),
      deliverBefore: readTime(row.deliver_before),
      attempts: Number(row.attempts) + 1,
      resume: row.resume_state,
    }));
  }

  async remove(sql: Sql, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await sql.later(`DELETE FROM outbox WHERE id IN (${placeholders(ids)})`, ids);
  }

  /** Offers the entry again at `at`, after a transient failure. */
  async retryAt(sql: Sql, id: number, at: Date, error: string, resume: string | null): Promise<void> {
    await sql.later('UPDATE outbox SET available_at = ?, claimed_by = NULL, last_error = ?, resume_state = ? WHERE id = ?', [
      at,
      error.slice(0, 255),
      resume,
      id,
    ]);
  }

  /** Makes the entries of a kind that wait for a retry (not those claimed) due now. */
  async expedite(sql: Sql, kind: OutboxKind, now: Date): Promise<number> {
    return sql.run('UPDATE outbox SET available_at = ? WHERE kind = ? AND claimed_by IS NULL AND available_at > ?', [now, kind, now]);
  }

  /** Entries not yet settled, and when the oldest was written. */
  async backlog(sql: Sql): Promise<{ count: number; oldest: Date | null }> {
    const row = await sql.get<{ count: number | string }>('SELECT COUNT(*) AS count FROM outbox');
    return { count: Number(row?.count ?? 0), oldest: await this.oldest(sql) };
  }

  /** When the oldest entry not yet settled was written; null when there is none. */
  async oldest(sql: Sql): Promise<Date | null> {
    const row = await sql.get<{ created_at: string | Date }>('SELECT created_at FROM outbox ORDER BY id LIMIT 1');
    return row ? readTime(row.created_at) : null;
  }
}
