import { Injectable } from '@nestjs/common';
import { BALANCE_CONSTRAINT } from '../database/migrations/1764028800000-balance-never-negative.js';
import type { Sql } from '../database/sql.js';

export type LedgerKind = 'opening' | 'debit' | 'refund' | 'credit';

/**
 * Balance changes. Each one writes an append-only ledger row in the caller's
 * transaction, so the balance always equals the sum of the ledger.
 */
@Injectable()
export class LedgerRepository {
  /**
   * Debits the account. The database refuses a negative balance: an overdraft
   * fails the transaction (see `isOverdraft`), when the debit reaches it with
   * the commit. Written last, so that the account row (which every send of the
   * account waits for) is locked as briefly as possible.
   */
  async debit(sql: Sql, accountId: string, amount: number, reference: string, at: Date): Promise<void> {
    if (amount === 0) return;
    await this.append(sql, accountId, -amount, 'debit', reference, at);
    await sql.later('UPDATE account SET balance = balance - ? WHERE id = ?', [amount, accountId]);
  }

  async add(sql: Sql, accountId: string, amount: number, kind: Exclude<LedgerKind, 'debit'>, reference: string | null, at: Date) {
    if (amount === 0 && kind !== 'opening') return;
    await sql.later('UPDATE account SET balance = balance + ? WHERE id = ?', [amount, accountId]);
    await this.append(sql, accountId, amount, kind, reference, at);
  }

  async balanceOf(sql: Sql, accountId: string): Promise<number | undefined> {
    const row = await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [accountId]);
    return row === undefined ? undefined : Number(row.balance);
  }

  async sumOf(sql: Sql, accountId: string): Promise<number> {
    const row = await sql.get<{ total: number | string | null }>(
      'SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?',
      [accountId],
    );
    return Number(row?.total ?? 0);
  }

  private async append(sql: Sql, accountId: string, amount: number, kind: LedgerKind, reference: string | null, at: Date) {
    await sql.insertLater('ledger_entry', { account_id: accountId, amount, kind, reference, created_at: at });
  }
}

/** The database refused a debit that would have made a balance negative. */
export function isOverdraft(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.includes(BALANCE_CONSTRAINT);
}
