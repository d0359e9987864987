import { Injectable } from '@nestjs/common';
import { placeholders, type Sql } from '../database/sql.js';
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

  /** Whether receipts are kept for any of these ids, read once the unit of work has committed (see Sql.readAfterCommit). */
  async anyAfterCommit(sql: Sql, provider: string, providerIds: readonly string[]): Promise<() => boolean> {
    const read = await sql.readAfterCommit(
      `SELECT 1 AS found FROM delivery_receipt WHERE provider = ? AND provider_id IN (${placeholders(providerIds)}) LIMIT 1`,
      [provider, ...providerIds],
    );
    return () => read.rows.length > 0;
  }

  /** The kept receipts for these ids, oldest first, locked until the transaction ends. */
  async lockFor(sql: Sql, provider: string, providerIds: string[]): Promise<Array<DeliveryReceipt & { id: number }>> {
    const rows = await sql.all<{ id: number | string; provider_id: string; outcome: ReceiptOutcome | null; provider_status: string }>(
      `SELECT id, provider_id, outcome, provider_status FROM delivery_receipt
        WHERE provider = ? AND provider_id IN (${placeholders(providerIds)}) ORDER BY id${sql.forUpdate}`,
      [provider, ...providerIds],
    );
    return rows.map((row) => ({ id: Number(row.id), provider, providerId: row.provider_id, outcome: row.outcome, providerStatus: row.provider_status }));
  }

  async remove(sql: Sql, ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await sql.later(`DELETE FROM delivery_receipt WHERE id IN (${placeholders(ids)})`, ids);
  }

  async purgeBefore(sql: Sql, before: Date): Promise<number> {
    return sql.run('DELETE FROM delivery_receipt WHERE received_at < ?', [before]);
  }
}
