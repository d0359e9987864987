import { Injectable } from '@nestjs/common';
import { createdRange, type Page } from '../common/list/page.js';
import { readTime, type Param, type Sql } from '../database/sql.js';
import type { OtpState } from './dto/otp-status.dto.js';
import type { OtpStatus } from './otp.repository.js';

/** An OTP and the status of its message, as `GET /v1/otp` reads them. */
export interface OtpStatusRecord {
  uniqId: string;
  recipient: string;
  channel: 'SMS' | 'EMAIL';
  status: OtpStatus;
  attempts: number;
  applicationName: string | null;
  expiresAt: Date;
  verifiedAt: Date | null;
  createdAt: Date;
  /** An e-mail OTP's own; for an SMS, its message's `status`. */
  deliveryStatus: string | null;
}

export interface OtpFilters {
  recipient?: string;
  state?: OtpState;
  channel?: 'SMS' | 'EMAIL';
  from?: Date;
  to?: Date;
}

/** What makes a state, at `now`, with `maxAttempts` wrong codes locking an OTP (as verification decides them). */
export interface StateRule {
  now: Date;
  maxAttempts: number;
}

const SELECT = `SELECT o.uniq_id, o.recipient, o.channel, o.status, o.attempts, o.application_name, o.expires_at, o.verified_at,
  o.created_at, COALESCE(m.status, o.delivery_status) AS delivery_status
  FROM otp o LEFT JOIN message_out m ON m.uniq_id = o.uniq_id`;

interface OtpStatusRow {
  uniq_id: string;
  recipient: string;
  channel: 'SMS' | 'EMAIL';
  status: OtpStatus;
  attempts: number | string;
  application_name: string | null;
  expires_at: string | Date;
  verified_at: string | Date | null;
  created_at: string | Date;
  delivery_status: string | null;
}

/** The OTPs of an account and key mode, read by id or in pages: the read side of the OTP table. */
@Injectable()
export class OtpStatusRepository {
  async find(sql: Sql, accountId: string, test: boolean, uniqId: string): Promise<OtpStatusRecord | null> {
    const row = await sql.get<OtpStatusRow>(`${SELECT} WHERE o.uniq_id = ? AND o.account_id = ? AND o.is_test = ?`, [uniqId, accountId, test]);
    return row ? toRecord(row) : null;
  }

  /** A page newest first, from the `(account_id, is_test, uniq_id)` index; the filters narrow its walk. */
  async list(sql: Sql, accountId: string, test: boolean, filters: OtpFilters, rule: StateRule, page: Page): Promise<OtpStatusRecord[]> {
    const range = createdRange('o.uniq_id', filters.from, filters.to);
    const conditions = ['o.account_id = ?', 'o.is_test = ?', ...range.conditions];
    const params: Param[] = [accountId, test, ...range.params];
    if (filters.recipient !== undefined) {
      conditions.push('o.recipient = ?');
      params.push(filters.recipient);
    }
    if (filters.channel !== undefined) {
      conditions.push('o.channel = ?');
      params.push(filters.channel);
    }
    if (filters.state !== undefined) {
      const [condition, values] = stateCondition(filters.state, rule);
      conditions.push(condition);
      params.push(...values);
    }
    const [text, values] = page.query(SELECT, 'o.uniq_id', conditions, params);
    return (await sql.all<OtpStatusRow>(text, values)).map(toRecord);
  }
}

/** The state of an OTP, decided as verification would decide it now: expiry before the wrong-code lock. */
export function stateOf(otp: Pick<OtpStatusRecord, 'status' | 'expiresAt' | 'attempts'>, rule: StateRule): OtpState {
  if (otp.status === 'verified' || otp.status === 'superseded') return otp.status;
  if (otp.expiresAt.getTime() <= rule.now.getTime()) return 'expired';
  return otp.attempts >= rule.maxAttempts ? 'locked' : 'active';
}

function stateCondition(state: OtpState, rule: StateRule): [string, Param[]] {
  switch (state) {
    case 'verified':
    case 'superseded':
      return ['o.status = ?', [state]];
    case 'expired':
      return ["(o.status = 'pending' AND o.expires_at <= ?)", [rule.now]];
    case 'locked':
      return ["(o.status = 'pending' AND o.expires_at > ? AND o.attempts >= ?)", [rule.now, rule.maxAttempts]];
    case 'active':
      return ["(o.status = 'pending' AND o.expires_at > ? AND o.attempts < ?)", [rule.now, rule.maxAttempts]];
  }
}

function toRecord(row: OtpStatusRow): OtpStatusRecord {
  return {
    uniqId: row.uniq_id,
    recipient: row.recipient,
    channel: row.channel,
    status: row.status,
    attempts: Number(row.attempts),
    applicationName: row.application_name,
    expiresAt: readTime(row.expires_at),
    verifiedAt: readTime(row.verified_at),
    createdAt: readTime(row.created_at),
    deliveryStatus: row.delivery_status,
  };
}
