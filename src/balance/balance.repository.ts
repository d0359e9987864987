import { Injectable } from '@nestjs/common';
import type { ChargedFor, LedgerKind } from '../billing/ledger.repository.js';
import type { Page } from '../common/list/page.js';
import { readTime, type Param, type Sql } from '../database/sql.js';

export interface BalanceRecord {
  /** Hundredths, as every amount here. */
  balance: number;
  currency: string;
  threshold: number | null;
  updatedAt: Date;
}

export interface LedgerRecord {
  id: number;
  kind: LedgerKind;
  amount: number;
  balanceAfter: number;
  referenceType: ChargedFor;
  referenceId: string | null;
  lot: string | null;
  createdBy: string | null;
  description: string | null;
  createdAt: Date;
}

export interface LedgerFilters {
  kind?: LedgerKind;
  referenceId?: string;
  from?: Date;
  to?: Date;
}

interface BalanceRow {
  balance: number | string;
  currency: string;
  low_balance_threshold: number | string | null;
  changed_at: string | Date | null;
  created_at: string | Date;
}

interface LedgerRow {
  id: number | string;
  kind: LedgerKind;
  amount: number | string;
  balance_after: number | string;
  reference_type: ChargedFor;
  reference: string | null;
  lot: string | null;
  created_by: string | null;
  description: string | null;
  created_at: string | Date;
}

/** The latest ledger row is the latest change: one step down the account's ledger index. */
const SELECT_BALANCE = `SELECT a.balance, a.currency, a.low_balance_threshold, a.created_at,
  (SELECT l.created_at FROM ledger_entry l WHERE l.account_id = a.id ORDER BY l.id DESC LIMIT 1) AS changed_at
  FROM account a WHERE a.id = ?`;

const SELECT_ENTRIES = 'SELECT id, kind, amount, balance_after, reference_type, reference, lot, created_by, description, created_at FROM ledger_entry';

/**
 * `balance.low` is armed while the balance is at or above the threshold, so a
 * new threshold already above the balance waits for the balance to come back
 * up before a debit can cross it.
 */
const SET_THRESHOLD = 'UPDATE account SET low_balance_threshold = ?, low_balance_armed = CASE WHEN balance >= ? THEN 1 ELSE 0 END WHERE id = ?';

/** The balance, its alert threshold and the ledger, as the account reads them. */
@Injectable()
export class BalanceRepository {
  async find(sql: Sql, accountId: string): Promise<BalanceRecord | null> {
    const row = await sql.get<BalanceRow>(SELECT_BALANCE, [accountId]);
    if (!row) return null;
    return {
      balance: Number(row.balance),
      currency: row.currency,
      threshold: row.low_balance_threshold === null ? null : Number(row.low_balance_threshold),
      updatedAt: readTime(row.changed_at ?? row.created_at),
    };
  }

  /** Hundredths, or null for none. */
  async setThreshold(sql: Sql, accountId: string, threshold: number | null): Promise<void> {
    await sql.run(SET_THRESHOLD, [threshold, threshold, accountId]);
  }

  /** The account's latest ledger row: in a transaction that changed the balance, the row of that change (the account row's lock keeps others out). */
  async latest(sql: Sql, accountId: string): Promise<LedgerRecord | null> {
    const row = await sql.get<LedgerRow>(`${SELECT_ENTRIES} WHERE account_id = ? ORDER BY id DESC LIMIT 1`, [accountId]);
    return row ? toRecord(row) : null;
  }

  /** A page of the account's ledger, newest first; each filter is served by an index ending with the id. */
  async list(sql: Sql, accountId: string, filters: LedgerFilters, page: Page): Promise<LedgerRecord[]> {
    const conditions = ['account_id = ?'];
    const params: Param[] = [accountId];
    if (filters.kind !== undefined) {
      conditions.push('kind = ?');
      params.push(filters.kind);
    }
    if (filters.referenceId !== undefined) {
      conditions.push('reference = ?');
      params.push(filters.referenceId);
    }
    if (filters.from !== undefined) {
      conditions.push('created_at >= ?');
      params.push(filters.from);
    }
    if (filters.to !== undefined) {
      conditions.push('created_at < ?');
      params.push(filters.to);
    }
    const [text, values] = page.query(SELECT_ENTRIES, 'id', conditions, params);
    return (await sql.all<LedgerRow>(text, values)).map(toRecord);
  }
}

function toRecord(row: LedgerRow): LedgerRecord {
  return {
    id: Number(row.id),
    kind: row.kind,
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
    referenceType: row.reference_type,
    referenceId: row.reference,
    lot: row.lot,
    createdBy: row.created_by,
    description: row.description,
    createdAt: readTime(row.created_at),
  };
}
