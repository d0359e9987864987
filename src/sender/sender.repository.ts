import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import { LocalNumber } from './entities/local-number.entity.js';
import { senderKey } from './sender-name.js';

export const SENDER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SenderStatus = (typeof SENDER_STATUSES)[number];

/** What a send needs of a sender. */
export interface SenderRef {
  id: string;
  name: string;
  status: SenderStatus;
}

export interface SenderRecord {
  id: string;
  accountId: string;
  name: string;
  status: SenderStatus;
  isDefault: boolean;
  useCase: string | null;
  sampleMessage: string | null;
  countries: string[] | null;
  email: string | null;
  phone: string | null;
  rejectionReason: string | null;
  createdBy: string | null;
  createdAt: Date;
  reviewedAt: Date | null;
}

export interface NewSender {
  id: string;
  accountId: string;
  name: string;
  status: SenderStatus;
  useCase?: string | null;
  sampleMessage?: string | null;
  countries?: string[] | null;
  isDefault?: boolean;
  createdBy: string | null;
  at: Date;
}

interface SenderRow {
  id: string;
  account_id: string;
  name: string;
  status: SenderStatus;
  is_default: number | boolean;
  use_case: string | null;
  sample_message: string | null;
  countries: string | null;
  email: string | null;
  phone: string | null;
  rejection_reason: string | null;
  created_by: string | null;
  created_at: string | Date;
  reviewed_at: string | Date | null;
}

const SELECT = `SELECT id, account_id, name, status, is_default, use_case, sample_message, countries, email, phone, rejection_reason,
  created_by, created_at, reviewed_at FROM sender`;

/** A pending or approved sender holds its name in the account (`active_key`); a rejected one lets it go. */
const activeKey = (status: SenderStatus, name: string): string | null => (status === 'rejected' ? null : senderKey(name));

@Injectable()
export class SenderRepository {
  /** The account's pending or approved sender of this name (case ignored); else a rejected one, if any. */
  async findByName(sql: Sql, accountId: string, name: string): Promise<SenderRef | undefined> {
    const active = await sql.get<SenderRef>('SELECT id, name, status FROM sender WHERE account_id = ? AND active_key = ?', [accountId, senderKey(name)]);
    return active ?? sql.get<SenderRef>('SELECT id, name, status FROM sender WHERE account_id = ? AND name_key = ? LIMIT 1', [accountId, senderKey(name)]);
  }

  findDefault(sql: Sql, accountId: string): Promise<SenderRef | undefined> {
    return sql.get<SenderRef>('SELECT id, name, status FROM sender WHERE account_id = ? AND is_default = 1 LIMIT 1', [accountId]);
  }

  async find(sql: Sql, accountId: string, id: string, lock = false): Promise<SenderRecord | null> {
    const row = await sql.get<SenderRow>(`${SELECT} WHERE id = ? AND account_id = ?${lock ? sql.forUpdate : ''}`, [id, accountId]);
    return row ? toRecord(row) : null;
  }

  /** The sender by id alone, for the operator's review. */
  async findForReview(sql: Sql, id: string): Promise<SenderRecord | null> {
    const row = await sql.get<SenderRow>(`${SELECT} WHERE id = ?${sql.forUpdate}`, [id]);
    return row ? toRecord(row) : null;
  }

  /** A page of the account's senders, or of every account's for the operator's review (`accountId` null). */
  async list(sql: Sql, accountId: string | null, status: SenderStatus | undefined, page: Page): Promise<SenderRecord[]> {
    const conditions = accountId === null ? [] : ['account_id = ?'];
    const params: Param[] = accountId === null ? [] : [accountId];
    if (status !== undefined) {
      conditions.push('status = ?');
      params.push(status);
    }
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<SenderRow>(text, values)).map(toRecord);
  }

  /** Inserts a sender; a unique violation when the account has a pending or approved sender of that name. */
  async insert(sql: Sql, sender: NewSender): Promise<void> {
    await sql.run(
      `INSERT INTO sender (id, account_id, name, name_key, active_key, status, is_default, use_case, sample_message, countries, created_by, created_at, reviewed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        sender.id,
        sender.accountId,
        sender.name,
        senderKey(sender.name),
        activeKey(sender.status, sender.name),
        sender.status,
        sender.isDefault ?? false,
        sender.useCase ?? null,
        sender.sampleMessage ?? null,
        sender.countries ? sender.countries.join(',') : null,
        sender.createdBy,
        sender.at,
        sender.status === 'pending' ? null : sender.at,
      ],
    );
  }

  /** Records the operator's decision on a sender; a unique violation when approving a name another sender holds. */
  async review(sql: Sql, sender: SenderRecord, status: 'approved' | 'rejected', reason: string | null, at: Date): Promise<void> {
    await sql.run('UPDATE sender SET status = ?, active_key = ?, rejection_reason = ?, reviewed_at = ? WHERE id = ?', [
      status,
      activeKey(status, sender.name),
      reason,
      at,
      sender.id,
    ]);
  }

  /** Makes the sender the account's only default one. */
  async makeDefault(sql: Sql, accountId: string, id: string): Promise<void> {
    await sql.run('UPDATE sender SET is_default = 0 WHERE account_id = ? AND is_default = 1 AND id <> ?', [accountId, id]);
    await sql.run('UPDATE sender SET is_default = 1 WHERE id = ? AND account_id = ?', [id, accountId]);
  }

  async delete(sql: Sql, accountId: string, id: string): Promise<boolean> {
    return (await sql.run('DELETE FROM sender WHERE id = ? AND account_id = ?', [id, accountId])) === 1;
  }

  async findLocalNumber(sql: Sql, accountId: string, dialCode: string): Promise<string | null> {
    const row = await sql.get<{ number: string }>('SELECT number FROM local_number WHERE account_id = ? AND dial_code = ?', [accountId, dialCode]);
    return row?.number ?? null;
  }

  /** The accounts that have this local number, at most two: more than one means that the number is shared. */
  async holdersOfLocalNumber(sql: Sql, number: string): Promise<string[]> {
    const rows = await sql.all<{ account_id: string }>('SELECT account_id FROM local_number WHERE number = ? LIMIT 2', [number]);
    return rows.map((row) => row.account_id);
  }

  async insertLocalNumber(sql: Sql, localNumber: LocalNumber): Promise<void> {
    await (await sql.orm()).insert(LocalNumber, localNumber);
  }
}

function toRecord(row: SenderRow): SenderRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    status: row.status,
    isDefault: readBoolean(row.is_default),
    useCase: row.use_case,
    sampleMessage: row.sample_message,
    countries: row.countries ? row.countries.split(',') : null,
    email: row.email,
    phone: row.phone,
    rejectionReason: row.rejection_reason,
    createdBy: row.created_by,
    createdAt: readTime(row.created_at),
    reviewedAt: readTime(row.reviewed_at),
  };
}
