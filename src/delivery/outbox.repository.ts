import { Injectable } from '@nestjs/common';
import { placeholders, readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
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
  /** A scheduled message's entry, due at `availableAt`: promoted to pending when claimed, or dropped if it was cancelled. */
  scheduled?: boolean;
  /** When the entry is due; `at` by default. */
  availableAt?: Date;
  /** A message of a bulk send or a campaign (an OTP is not): it waits in the bulk lane. */
  bulk?: boolean;
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
  scheduled: boolean;
  bulk: boolean;
  /** When it became due (a scheduled one, at its time): what its waiting is counted from. */
  dueAt: Date;
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
  scheduled: unknown;
  bulk: unknown;
  created_at: string | Date;
}

const OUTBOX = new LeasedTable('outbox', [
  'id', 'kind', 'record_id', 'account_id', 'amount', 'payload', 'is_test', 'deliver_before', 'attempts', 'resume_state', 'scheduled', 'bulk', 'created_at',
]);

/**
 * The durable queue between accepting a message and handing it over, claimed
 * as every job table is (LeasedTable): if its claimer dies the lease runs out
 * and the entry is offered again. It is deleted once settled.
 */
@Injectable()
export class OutboxRepository {
  async add(sql: Sql, entry: NewOutboxEntry): Promise<void> {
    await sql.insertLater('outbox', toRow(entry));
  }

  /** Many entries, in multi-row statements. */
  async addMany(sql: Sql, entries: readonly NewOutboxEntry[]): Promise<void> {
    await sql.insertManyLater('outbox', entries.map(toRow));
  }

  /** Claims up to `limit` due entries of one lane; other instances skip the rows this one holds. */
  async claim(sql: Sql, lease: Lease, now: Date, limit: number, bulk: boolean): Promise<OutboxEntry[]> {
    const rows = await OUTBOX.claim<OutboxRow>(sql, lease, now, limit, { where: 'bulk = ?', params: [bulk] });
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
      scheduled: readBoolean(row.scheduled),
      bulk: readBoolean(row.bulk),
      dueAt: readTime(row.created_at),
    }));
  }

  async remove(sql: Sql, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await sql.later(`DELETE FROM outbox WHERE id IN (${placeholders(ids)})`, ids);
  }

  /** Offers the entry again at `at`, after a transient failure; one that was not `counted` gives its claim's attempt back. */
  async retryAt(sql: Sql, id: number, at: Date, error: string, resume: string | null, counted: boolean): Promise<void> {
    await sql.later(
      `UPDATE outbox SET available_at = ?, claimed_by = NULL, last_error = ?, resume_state = ?${counted ? '' : ', attempts = attempts - 1'} WHERE id = ?`,
      [at, error.slice(0, 255), resume, id],
    );
  }

  /**
   * Makes the entries of a kind that wait for a retry due now: tried before and not claimed (a scheduled entry
   * not yet due has never been tried; one waiting for a connection may have no attempt counted, but has its reason).
   * Lane by lane, as the claim index leads with the lane.
   */
  async expedite(sql: Sql, kind: OutboxKind, now: Date): Promise<number> {
    let expedited = 0;
    for (const bulk of [false, true]) {
      expedited += await sql.run(
        'UPDATE outbox SET available_at = ? WHERE bulk = ? AND available_at > ? AND kind = ? AND claimed_by IS NULL AND last_error IS NOT NULL',
        [now, bulk, now, kind],
      );
    }
    return expedited;
  }

  /** Entries not yet settled, and when the oldest was written. */
  async backlog(sql: Sql, now: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await sql.get<{ count: number | string }>('SELECT COUNT(*) AS count FROM outbox WHERE created_at <= ?', [now]);
    return { count: Number(row?.count ?? 0), oldest: await this.oldest(sql, now) };
  }

  /** When the oldest entry not yet settled became due; null when there is none (scheduled entries wait for their time). */
  async oldest(sql: Sql, now: Date): Promise<Date | null> {
    const row = await sql.get<{ created_at: string | Date }>('SELECT created_at FROM outbox WHERE created_at <= ? ORDER BY created_at LIMIT 1', [now]);
    return row ? readTime(row.created_at) : null;
  }
}

function toRow(entry: NewOutboxEntry): Record<string, Param> {
  return {
    kind: entry.kind,
    record_id: entry.recordId,
    account_id: entry.accountId,
    amount: entry.amount,
    payload: entry.payload,
    is_test: entry.test,
    deliver_before: entry.deliverBefore,
    attempts: 0,
    scheduled: entry.scheduled ?? false,
    bulk: entry.bulk ?? false,
    available_at: entry.availableAt ?? entry.at,
    // when it joins the queue of due entries: a scheduled one, when its time comes
    created_at: entry.availableAt ?? entry.at,
  };
}
