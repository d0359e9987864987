import { Injectable } from '@nestjs/common';
import { placeholders, readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';
import type { ChunkPlace, ChunkState, MessageProgress } from './outbox-chunk.js';

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
}

/** An entry of the bulk lane: up to CHUNK_SIZE messages of one lot, one account and one due time. */
export interface NewOutboxChunk {
  /** Its first message's record, which names it. */
  recordId: string;
  accountId: string;
  /** Hundredths, all its messages together. */
  amount: number;
  messages: number;
  /** The stored ChunkDocument. */
  payload: string;
  test: boolean;
  scheduled: boolean;
  availableAt: Date;
}

/** One message claimed for hand-over: an entry of its own (an OTP), or one of a chunk's. */
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
  /** Its place in a chunk of the bulk lane; null for an entry of its own. */
  chunk: ChunkPlace | null;
}

/** A chunk of the bulk lane, as claimed. */
export interface ClaimedChunk {
  id: number;
  accountId: string;
  payload: string;
  test: boolean;
  deliverBefore: Date | null;
  scheduled: boolean;
  /** When it became due (a scheduled one, at its time): what its messages' waiting is counted from. */
  dueAt: Date;
  /** When it was due before this claim leased it. */
  availableAt: Date;
  /** Null until a unit of work has recorded what became of one of its messages. */
  progress: MessageProgress[] | null;
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

interface ChunkRow {
  id: number | string;
  account_id: string;
  payload: string;
  is_test: unknown;
  deliver_before: string | Date | null;
  scheduled: unknown;
  available_at: string | Date;
  created_at: string | Date;
  messages: number | string;
  progress: string | null;
}

const OUTBOX = new LeasedTable('outbox', [
  'id', 'kind', 'record_id', 'account_id', 'amount', 'payload', 'is_test', 'deliver_before', 'attempts', 'resume_state', 'scheduled', 'bulk', 'created_at',
]);
const CHUNKS = new LeasedTable('outbox', [
  'id', 'account_id', 'payload', 'is_test', 'deliver_before', 'scheduled', 'available_at', 'created_at', 'messages', 'progress',
]);
const PRIORITY_LANE = { where: 'bulk = ?', params: [false] };
const BULK_LANE = { where: 'bulk = ?', params: [true] };

/**
 * The durable queue between accepting a message and handing it over, claimed
 * as every job table is (LeasedTable): if its claimer dies the lease runs out
 * and the entry is offered again. An entry of the priority lane is one
 * message, deleted once settled; one of the bulk lane is a chunk of a lot,
 * whose row records what has become of each message (`progress`) in the units
 * of work that settle them, and is deleted once all are settled.
 */
@Injectable()
export class OutboxRepository {
  async add(sql: Sql, entry: NewOutboxEntry): Promise<void> {
    await sql.insertLater('outbox', toRow(entry));
  }

  /** Chunks of the bulk lane, in multi-row statements. */
  async addChunks(sql: Sql, chunks: readonly NewOutboxChunk[]): Promise<void> {
    await sql.insertManyLater('outbox', chunks.map(toChunkRow));
  }

  /** Claims up to `limit` due entries of the priority lane; other instances skip the rows this one holds. */
  async claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<OutboxEntry[]> {
    const rows = await OUTBOX.claim<OutboxRow>(sql, lease, now, limit, PRIORITY_LANE);
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
      chunk: null,
    }));
  }

  /**
   * Claims due chunks of the bulk lane, whole, until they hold `limit`
   * messages not yet settled; `more` when others may be due.
   */
  async claimChunks(sql: Sql, lease: Lease, now: Date, limit: number): Promise<{ chunks: ClaimedChunk[]; more: boolean }> {
    const rows = await CHUNKS.claim<ChunkRow>(sql, lease, now, limit, BULK_LANE, 'messages');
    const chunks = rows.map((row) => ({
      id: Number(row.id),
      accountId: row.account_id,
      payload: row.payload,
      test: readBoolean(row.is_test),
      deliverBefore: readTime(row.deliver_before),
      scheduled: readBoolean(row.scheduled),
      dueAt: readTime(row.created_at),
      availableAt: readTime(row.available_at),
      progress: row.progress === null ? null : (JSON.parse(row.progress) as MessageProgress[]),
    }));
    return { chunks, more: rows.reduce((held, row) => held + Number(row.messages), 0) >= limit };
  }

  /**
   * Writes what became of claimed chunks' messages, where `owner` still holds
   * them: a chunk with none left is deleted; one whose claim is over is given
   * back, due when its next message is.
   */
  async saveChunks(sql: Sql, chunks: readonly ChunkState[], owner: string): Promise<void> {
    for (const chunk of chunks) {
      if (chunk.left === 0) {
        await sql.later('DELETE FROM outbox WHERE id = ? AND claimed_by = ?', [chunk.id, owner]);
      } else if (chunk.releaseAt) {
        await sql.later(
          'UPDATE outbox SET progress = ?, messages = ?, available_at = ?, claimed_by = NULL, last_error = COALESCE(?, last_error) WHERE id = ? AND claimed_by = ?',
          [JSON.stringify(chunk.progress), chunk.left, chunk.releaseAt, chunk.error?.slice(0, 255) ?? null, chunk.id, owner],
        );
      } else {
        await sql.later('UPDATE outbox SET progress = ?, messages = ? WHERE id = ? AND claimed_by = ?', [JSON.stringify(chunk.progress), chunk.left, chunk.id, owner]);
      }
    }
  }

  /** Extends the lease on the entries `lease.owner` still holds. */
  async renew(sql: Sql, ids: readonly number[], lease: Lease, now: Date): Promise<void> {
    await OUTBOX.renew(sql, ids, lease, now);
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
   * A retry is never due later than `withinMs` from now, so only that stretch of the claim index is read, lane by lane
   * as the index leads with the lane: the entries scheduled beyond it (a lot sent for tomorrow) are neither read nor
   * locked, which on MariaDB held up the hand-over for seconds on every bind.
   */
  async expedite(sql: Sql, kind: OutboxKind, now: Date, withinMs: number): Promise<number> {
    const until = new Date(now.getTime() + withinMs);
    let expedited = 0;
    for (const bulk of [false, true]) {
      expedited += await sql.run(
        `UPDATE ${sql.indexed('outbox', 'o', 'IDX_outbox_lane')} SET available_at = ?
          WHERE bulk = ? AND available_at > ? AND available_at <= ? AND kind = ? AND claimed_by IS NULL AND last_error IS NOT NULL`,
        [now, bulk, now, until, kind],
      );
    }
    return expedited;
  }

  /** Messages not yet settled, and when the oldest entry was written. */
  async backlog(sql: Sql, now: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await sql.get<{ count: number | string | null }>('SELECT SUM(messages) AS count FROM outbox WHERE created_at <= ?', [now]);
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
    // an entry of its own is an OTP's or a reply's: the bulk lane holds chunks of lots
    bulk: false,
    available_at: entry.availableAt ?? entry.at,
    // when it joins the queue of due entries: a scheduled one, when its time comes
    created_at: entry.availableAt ?? entry.at,
  };
}

function toChunkRow(chunk: NewOutboxChunk): Record<string, Param> {
  return {
    kind: 'sms',
    record_id: chunk.recordId,
    account_id: chunk.accountId,
    amount: chunk.amount,
    payload: chunk.payload,
    is_test: chunk.test,
    deliver_before: null,
    attempts: 0,
    scheduled: chunk.scheduled,
    bulk: true,
    messages: chunk.messages,
    available_at: chunk.availableAt,
    created_at: chunk.availableAt,
  };
}
