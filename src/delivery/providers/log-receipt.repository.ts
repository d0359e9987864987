import { Injectable } from '@nestjs/common';
import { placeholders, type Sql } from '../../database/sql.js';
import type { Lease } from '../../jobs/lease.js';
import { LeasedTable } from '../../jobs/leased-table.js';

export interface DueLogReceipt {
  id: number;
  providerId: string;
}

const RECEIPTS = new LeasedTable('log_receipt', ['id', 'provider_id']);

/** The `log` provider's receipts to come: one row per message handed over, due when its receipt is. */
@Injectable()
export class LogReceiptRepository {
  /** Once per provider id: a hand-over recorded twice schedules one receipt. */
  async schedule(sql: Sql, providerIds: readonly string[], dueAt: Date, at: Date): Promise<void> {
    for (const providerId of providerIds) {
      await sql.insertLaterIfAbsent('log_receipt', { provider_id: providerId, attempts: 0, available_at: dueAt, claimed_by: null, created_at: at });
    }
  }

  async claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<DueLogReceipt[]> {
    const rows = await RECEIPTS.claim<{ id: number | string; provider_id: string }>(sql, lease, now, limit);
    return rows.map((row) => ({ id: Number(row.id), providerId: row.provider_id }));
  }

  /** Deletes the rows once their receipts are applied, in that unit; false when another instance holds any of them now. */
  async finish(sql: Sql, ids: readonly number[], owner: string): Promise<boolean> {
    const deleted = await sql.run(`DELETE FROM log_receipt WHERE claimed_by = ? AND id IN (${placeholders(ids)})`, [owner, ...ids]);
    return deleted === ids.length;
  }
}
