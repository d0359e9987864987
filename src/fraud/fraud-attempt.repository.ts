import { Injectable } from '@nestjs/common';
import { uuidV7Floor } from '../common/ids.js';
import { createdRange, type Page } from '../common/list/page.js';
import { readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { FraudScope } from './fraud-state.repository.js';

/** What the guard did with a send: refused it, or let it through and recorded it (a signal in monitor mode). */
export const ATTEMPT_MODES = ['blocked', 'monitored'] as const;
export type AttemptMode = (typeof ATTEMPT_MODES)[number];

export interface AttemptRecord extends FraudScope {
  id: string;
  mode: AttemptMode;
  /** The signals that decided it, in the guard's order. */
  reasons: string[];
  channel: 'SMS' | 'EMAIL';
  recipient: string;
  country: string | null;
  prefix: string | null;
  clientIp: string | null;
  userRef: string | null;
  /** The OTP a monitored attempt let through; null for a blocked one. */
  otpId: string | null;
  blockedUntil: Date | null;
  createdAt: Date;
}

/** The attempts filters; without `scope`, those of every account (the operator's view). */
export interface AttemptFilters {
  scope?: Partial<FraudScope>;
  reason?: string;
  mode?: AttemptMode;
  country?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

interface AttemptRow {
  id: string;
  account_id: string;
  sandbox: unknown;
  mode: AttemptMode;
  reasons: string;
  channel: 'SMS' | 'EMAIL';
  recipient: string;
  country: string | null;
  prefix: string | null;
  client_ip: string | null;
  user_ref: string | null;
  otp_id: string | null;
  blocked_until: string | Date | null;
  created_at: string | Date;
}

const COLUMNS = ['id', 'account_id', 'sandbox', 'mode', 'reasons', 'channel', 'recipient', 'country', 'prefix', 'client_ip', 'user_ref', 'otp_id', 'blocked_until', 'created_at'];
const SELECT = `SELECT ${COLUMNS.map((column) => `a.${column}`).join(', ')} FROM fraud_attempt a`;
/** With the reason filter, the page is read from the reasons' index and each attempt joined to it. */
const SELECT_BY_REASON = `SELECT ${COLUMNS.map((column) => `a.${column}`).join(', ')} FROM fraud_attempt_reason r JOIN fraud_attempt a ON a.id = r.attempt_id`;

/** The guard's attempts, each with one row per reason for the `reason` filter; kept 30 days. */
@Injectable()
export class FraudAttemptRepository {
  /** Written with the unit's next statement (see `Sql.later`). */
  async insert(sql: Sql, attempt: AttemptRecord): Promise<void> {
    await sql.insertLater('fraud_attempt', {
      id: attempt.id,
      account_id: attempt.accountId,
      sandbox: attempt.sandbox,
      mode: attempt.mode,
      reasons: attempt.reasons.join(','),
      channel: attempt.channel,
      recipient: attempt.recipient,
      country: attempt.country,
      prefix: attempt.prefix,
      client_ip: attempt.clientIp,
      user_ref: attempt.userRef,
      otp_id: attempt.otpId,
      blocked_until: attempt.blockedUntil,
      created_at: attempt.createdAt,
    });
    await sql.insertManyLater(
      'fraud_attempt_reason',
      attempt.reasons.map((reason) => ({ account_id: attempt.accountId, sandbox: attempt.sandbox, reason, attempt_id: attempt.id })),
    );
  }

  async list(sql: Sql, filters: AttemptFilters, page: Page): Promise<AttemptRecord[]> {
    const byReason = filters.reason !== undefined;
    const conditions: string[] = [];
    const params: Param[] = [];
    const owner = byReason ? 'r' : 'a';
    for (const [column, value] of [
      [`${owner}.account_id`, filters.scope?.accountId],
      [`${owner}.sandbox`, filters.scope?.sandbox],
      ['r.reason', filters.reason],
      ['a.mode', filters.mode],
      ['a.country', filters.country],
    ] as const) {
      if (value === undefined) continue;
      conditions.push(`${column} = ?`);
      params.push(value);
    }
    const key = byReason ? 'r.attempt_id' : 'a.id';
    const range = createdRange(key, filters.createdFrom, filters.createdTo);
    conditions.push(...range.conditions);
    params.push(...range.params);
    const [text, values] = page.query(byReason ? SELECT_BY_REASON : SELECT, key, conditions, params);
    return (await sql.all<AttemptRow>(text, values)).map(toRecord);
  }

  /** The blocked attempts of `scope` created in [from, to), to `country` if given. */
  async countBlocked(sql: Sql, scope: FraudScope, from: Date, to: Date, country?: string): Promise<number> {
    const row = await sql.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM fraud_attempt WHERE account_id = ? AND sandbox = ? AND mode = 'blocked' AND id >= ? AND id < ?${country === undefined ? '' : ' AND country = ?'}`,
      [scope.accountId, scope.sandbox, uuidV7Floor(from), uuidV7Floor(to), ...(country === undefined ? [] : [country])],
    );
    return Number(row?.n ?? 0);
  }

  /** Forgets the attempts created before `before`, with their reasons (read by reason, through their index). */
  async purgeBefore(sql: Sql, before: Date, reasons: readonly string[]): Promise<number> {
    const floor = uuidV7Floor(before);
    await sql.run(`DELETE FROM fraud_attempt_reason WHERE reason IN (${reasons.map(() => '?').join(', ')}) AND attempt_id < ?`, [...reasons, floor]);
    return sql.run('DELETE FROM fraud_attempt WHERE id < ?', [floor]);
  }
}

const toRecord = (row: AttemptRow): AttemptRecord => ({
  id: row.id,
  accountId: row.account_id,
  sandbox: readBoolean(row.sandbox),
  mode: row.mode,
  reasons: row.reasons.split(','),
  channel: row.channel,
  recipient: row.recipient,
  country: row.country,
  prefix: row.prefix,
  clientIp: row.client_ip,
  userRef: row.user_ref,
  otpId: row.otp_id,
  blockedUntil: readTime(row.blocked_until),
  createdAt: readTime(row.created_at),
});
