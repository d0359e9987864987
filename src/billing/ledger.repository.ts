import { Injectable } from '@nestjs/common';
import { BALANCE_CONSTRAINT } from '../database/migrations/1764028800000-balance-never-negative.js';
import type { Sql } from '../database/sql.js';
import { LowBalanceAlerts } from './low-balance-alerts.js';

export const LEDGER_KINDS = ['opening', 'debit', 'refund', 'credit', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const CHARGED_FOR = ['sms', 'otp', 'campaign', 'hlr', 'admin'] as const;
export type ChargedFor = (typeof CHARGED_FOR)[number];

/** What a balance change is for. */
export interface LedgerReference {
  type: ChargedFor;
  /** The record or lot charged or refunded; null for an operator's change. */
  id: string | null;
  lot?: string | null;
  /** The user whose request made the change; null for the service itself and the operator. */
  createdBy?: string | null;
  /** What the operator wrote about the change; null: the ledger describes it by its kind. */
  description?: string | null;
}

/**
 * Each row keeps the balance it left, read from the account row after its
 * update: that update, first, holds the row's lock, so the read takes no
 * other lock (a shared one taken first would deadlock two concurrent sends).
 */
const BALANCE = 'SELECT balance FROM account WHERE id = ?';

const APPEND = `INSERT INTO ledger_entry (account_id, amount, kind, reference, reference_type, lot, created_by, description, created_at, balance_after)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, balance FROM account WHERE id = ?`;

/**
 * A credit or refund that brings the balance back to or above the threshold
 * re-arms `balance.low`; the flag is set before the balance, so that both
 * databases compare the balance before this change (NULL: no threshold).
 */
const CREDIT = `UPDATE account SET low_balance_armed = CASE WHEN balance + ? >= low_balance_threshold THEN 1 ELSE low_balance_armed END,
  balance = balance + ? WHERE id = ?`;

/**
 * Balance changes. Each one writes an append-only ledger row in the caller's
 * transaction, so the balance always equals the sum of the ledger.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly alerts: LowBalanceAlerts) {}

  /**
   * Debits the account. The database refuses a negative balance: an overdraft
   * fails the transaction (see `isOverdraft`), when the debit reaches it with
   * the commit. Written last, so that the account row (which every send of the
   * account waits for) is locked as briefly as possible. An account with a
   * low-balance threshold learns then whether this debit crossed it.
   */
  async debit(sql: Sql, accountId: string, amount: number, reference: LedgerReference, at: Date): Promise<void> {
    if (amount === 0) return;
    await sql.later('UPDATE account SET balance = balance - ? WHERE id = ?', [amount, accountId]);
    await this.append(sql, accountId, -amount, 'debit', reference, at);
    await this.alerts.afterDebit(sql, accountId, at);
  }

  async add(sql: Sql, accountId: string, amount: number, kind: Exclude<LedgerKind, 'debit'>, reference: LedgerReference, at: Date) {
    if (amount === 0 && kind !== 'opening') return;
    await sql.later(CREDIT, [amount, amount, accountId]);
    await this.append(sql, accountId, amount, kind, reference, at);
  }

  async balanceOf(sql: Sql, accountId: string): Promise<number | undefined> {
    const row = await sql.get<{ balance: number | string }>(BALANCE, [accountId]);
    return row === undefined ? undefined : Number(row.balance);
  }

  /** The balance the unit of work leaves, to be read once it has committed (on MySQL it travels with the commit). */
  async balanceAtCommit(sql: Sql, accountId: string): Promise<() => number> {
    const read = await sql.readAtCommit<{ balance: number | string }>(BALANCE, [accountId]);
    return () => Number(read.rows[0]?.balance ?? 0);
  }

  async sumOf(sql: Sql, accountId: string): Promise<number> {
    const row = await sql.get<{ total: number | string | null }>(
      'SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?',
      [accountId],
    );
    return Number(row?.total ?? 0);
  }

  private async append(sql: Sql, accountId: string, amount: number, kind: LedgerKind, reference: LedgerReference, at: Date) {
    await sql.later(APPEND, [
      accountId,
      amount,
      kind,
      reference.id,
      reference.type,
      reference.lot ?? null,
      reference.createdBy ?? null,
      reference.description ?? null,
      at,
      accountId,
    ]);
  }
}

/** The database refused a debit that would have made a balance negative. */
export function isOverdraft(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.includes(BALANCE_CONSTRAINT);
}
