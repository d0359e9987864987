import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { readTime, type Sql } from '../database/sql.js';

export interface StoredAnswer {
  status: number;
  /** Sealed JSON of the answer. */
  sealed: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' };

interface RecordRow {
  fingerprint: string;
  state: 'in_flight' | 'done';
  status_code: number | string | null;
  response: string | null;
  locked_until: string | Date;
  expires_at: string | Date;
}

const DUPLICATE_KEY = 1062;

/**
 * One row per (account, Idempotency-Key): `in_flight` while the first request
 * runs (a mark that lapses), then `done` with its sealed answer until it expires.
 */
@Injectable()
export class IdempotencyRepository {
  async claim(sql: Sql, accountId: string, key: string, fingerprint: string, now: Date, lockedUntil: Date, expiresAt: Date): Promise<Claim> {
    const row = await sql.get<RecordRow>(
      `SELECT fingerprint, state, status_code, response, locked_until, expires_at
         FROM idempotency_record WHERE account_id = ? AND idem_key = ?${sql.forUpdate}`,
      [accountId, key],
    );
    const live = row && readTime(row.expires_at).getTime() > now.getTime();
    if (row && live) {
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'replay', answer: { status: Number(row.status_code), sealed: row.response ?? '' } };
      if (readTime(row.locked_until).getTime() > now.getTime()) return { kind: 'in-flight' };
    }
    const fields = { fingerprint, state: 'in_flight', status_code: null, response: null, locked_until: lockedUntil, expires_at: expiresAt, created_at: now };
    if (row) {
      await sql.run(
        `UPDATE idempotency_record SET fingerprint = ?, state = ?, status_code = ?, response = ?, locked_until = ?, expires_at = ?, created_at = ?
          WHERE account_id = ? AND idem_key = ?`,
        [...Object.values(fields), accountId, key],
      );
      return { kind: 'claimed' };
    }
    try {
      await sql.insert('idempotency_record', { account_id: accountId, idem_key: key, ...fields });
    } catch (error) {
      if (isDuplicate(error)) return { kind: 'in-flight' };
      throw error;
    }
    return { kind: 'claimed' };
  }

  async complete(sql: Sql, accountId: string, key: string, answer: StoredAnswer): Promise<void> {
    await sql.later(
      "UPDATE idempotency_record SET state = 'done', status_code = ?, response = ? WHERE account_id = ? AND idem_key = ?",
      [answer.status, answer.sealed, accountId, key],
    );
  }

  /** Forgets an in-flight claim whose answer is not kept (429, 5xx), so that the client may retry. */
  async release(sql: Sql, accountId: string, key: string): Promise<void> {
    await sql.run("DELETE FROM idempotency_record WHERE account_id = ? AND idem_key = ? AND state = 'in_flight'", [accountId, key]);
  }

  async purgeExpired(sql: Sql, now: Date): Promise<number> {
    return sql.run('DELETE FROM idempotency_record WHERE expires_at < ?', [now]);
  }
}

function isDuplicate(error: unknown): boolean {
  const cause = (error instanceof QueryFailedError ? error.driverError : error) as { errno?: number; code?: string } | undefined;
  return cause?.errno === DUPLICATE_KEY || cause?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
