import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { DeliveryReceipt, ReceiptOutcome } from './delivery-receipt.js';

/** Receipts that arrived before their message's provider id was recorded, kept until it is. */
@Injectable()
export class ReceiptRepository {
  async keep(sql: Sql, receipt: DeliveryReceipt, at: Date): Promise<void> {
    await sql.insert('delivery_receipt', {
      provider: receipt.provider,
      provider_id: receipt.providerId,
      outcome: receipt.outcome,
      provider_status: receipt.providerStatus,
      received_at: at,
    });
  }

  /** Takes the kept receipts for these ids, oldest first. */
  async take(sql: Sql, provider: string, providerIds: string[]): Promise<DeliveryReceipt[]> {
    if (providerIds.length === 0) return [];
    const placeholders = providerIds.map(() => '?').join(', ');
    const rows = await sql.all<{ id: number | string; provider_id: string; outcome: ReceiptOutcome | null; provider_status: string }>(
      `SELECT id, provider_id, outcome, provider_status FROM delivery_receipt
        WHERE provider = ? AND provider_id IN (${placeholders}) ORDER BY id`,
      [provider, ...providerIds],
    );
    if (rows.length > 0) {
      await sql.run(`DELETE FROM delivery_receipt WHERE id IN (${rows.map(() => '?').join(', ')})`, rows.map((row) => Number(row.id)));
    }
    return rows.map((row) => ({ provider, providerId: row.provider_id, outcome: row.outcome, providerStatus: row.provider_status }));
  }

  async purgeBefore(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM delivery_receipt WHERE received_at < ?', [before]);
  }
}
