import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { FraudScope } from './fraud-state.repository.js';
import type { FraudList, ListKind } from './fraud-state.js';

export interface NewListEntry {
  id: string;
  list: FraudList;
  kind: ListKind;
  value: string;
  note: string | null;
  expiresAt: Date | null;
  createdBy: string | null;
  at: Date;
}

export interface ListEntryRecord extends FraudScope, Omit<NewListEntry, 'at'> {
  createdAt: Date;
}

/** The list filters; without `scope`, the entries of every account (the operator's view). */
export interface ListEntryFilters {
  scope?: Partial<FraudScope>;
  list?: FraudList;
  kind?: ListKind;
}

interface EntryRow {
  id: string;
  account_id: string;
  sandbox: unknown;
  list: FraudList;
  kind: ListKind;
  value: string;
  note: string | null;
  expires_at: string | Date | null;
  created_by: string | null;
  created_at: string | Date;
}

const SELECT = 'SELECT id, account_id, sandbox, list, kind, value, note, expires_at, created_by, created_at FROM fraud_list_entry';

/** The safe and deny lists of each account and mode; an entry past its `expires_at` applies no more and is not listed. */
@Injectable()
export class FraudListRepository {
  /** False when the same entry is on the list already (one that has lapsed is replaced). */
  async add(sql: Sql, scope: FraudScope, entry: NewListEntry): Promise<boolean> {
    await sql.later('DELETE FROM fraud_list_entry WHERE account_id = ? AND sandbox = ? AND list = ? AND kind = ? AND value = ? AND expires_at <= ?', [
      scope.accountId,
      scope.sandbox,
      entry.list,
      entry.kind,
      entry.value,
      entry.at,
    ]);
    const inserted = await sql.run(
      `${sql.insertIgnore} INTO fraud_list_entry (id, account_id, sandbox, list, kind, value, note, expires_at, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [entry.id, scope.accountId, scope.sandbox, entry.list, entry.kind, entry.value, entry.note, entry.expiresAt, entry.createdBy, entry.at],
    );
    return inserted === 1;
  }

  async find(sql: Sql, id: string, now: Date, scope?: FraudScope): Promise<ListEntryRecord | null> {
    const [text, params] = scoped(`${SELECT} WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)`, [id, now], scope);
    const row = await sql.get<EntryRow>(text, params);
    return row ? toRecord(row) : null;
  }

  async remove(sql: Sql, id: string): Promise<boolean> {
    return (await sql.run('DELETE FROM fraud_list_entry WHERE id = ?', [id])) === 1;
  }

  /** A page of the entries in force at `now`, newest first. */
  async list(sql: Sql, filters: ListEntryFilters, now: Date, page: Page): Promise<ListEntryRecord[]> {
    const conditions = ['(expires_at IS NULL OR expires_at > ?)'];
    const params: Param[] = [now];
    for (const [column, value] of [
      ['account_id', filters.scope?.accountId],
      ['sandbox', filters.scope?.sandbox],
      ['list', filters.list],
      ['kind', filters.kind],
    ] as const) {
      if (value === undefined) continue;
      conditions.push(`${column} = ?`);
      params.push(value);
    }
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<EntryRow>(text, values)).map(toRecord);
  }

  async purgeExpired(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM fraud_list_entry WHERE expires_at < ?', [before]);
  }
}

/** The statement limited to `scope`'s entries, when given. */
function scoped(text: string, params: Param[], scope?: FraudScope): [string, Param[]] {
  return scope ? [`${text} AND account_id = ? AND sandbox = ?`, [...params, scope.accountId, scope.sandbox]] : [text, params];
}

const toRecord = (row: EntryRow): ListEntryRecord => ({
  id: row.id,
  accountId: row.account_id,
  sandbox: readBoolean(row.sandbox),
  list: row.list,
  kind: row.kind,
  value: row.value,
  note: row.note,
  expiresAt: readTime(row.expires_at),
  createdBy: row.created_by,
  createdAt: readTime(row.created_at),
});
