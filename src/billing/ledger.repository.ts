import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

export type LedgerKind = 'opening' | 'debit' | 'refund' | 'credit';

/**
 * Balance changes. Each one writes an append-only ledger row in the caller's
 * transaction, so the balance always equals the sum of the ledger.
 */
@Injectable()
export class LedgerRepository {
  /**
   * Debits only when the balance covers the amount, in the same statement. The
   * ledger row is written first, so that the account row (which every send of
   * the account waits for) is locked as briefly as possible: from the debit to
   * the commit. The caller rolls back when the debit is refused.
   */
  async debitIfCovered(sql: Sql, accountId: string, amount: number, reference: string, at: Date): Promise<boolean> {
    if (amount === 0) return true;
    await this.append(sql, accountId, -amount, 'debit', reference, at);
    const changed = await sql.run('UPDATE account SET balance = balance - ? WHERE id = ? AND balance >= ?', [
      amount,
      accountId,
      amount,
    ]);
    return changed === 1;
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
