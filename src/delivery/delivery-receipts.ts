import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { Metrics } from '../metrics/metrics.js';
import type { Sql } from '../database/sql.js';
import type { DeliveryReceipt } from './delivery-receipt.js';
import { DeliveryRecords } from './delivery-records.js';
import { ReceiptRepository } from './receipt.repository.js';

/** How long a receipt for an unknown provider id waits for its message. */
const UNMATCHED_KEPT_MS = 24 * 3600_000;

/**
 * Delivery receipts move an SMS to `delivered` or `undelivered`. One that
 * names no known message yet (it can overtake the record of the SMSC's
 * acceptance) is kept and applied when that record is written; one still
 * unmatched after a day is dropped.
 */
@Injectable()
export class DeliveryReceipts {
  private readonly logger = new Logger(DeliveryReceipts.name);

  constructor(
    private readonly database: Database,
    private readonly records: DeliveryRecords,
    private readonly kept: ReceiptRepository,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /** Stores the receipt's effect; resolves once it is durable, so that the SMSC may then be acknowledged. */
  record(receipt: DeliveryReceipt): Promise<void> {
    return this.recordAll([receipt]);
  }

  /** Stores the receipts' effects in one unit of work, with what `alongside` writes there (a job's mark that they are done). */
  async recordAll(receipts: readonly DeliveryReceipt[], alongside?: (sql: Sql) => Promise<void>): Promise<void> {
    const at = this.clock.now();
    const unmatched = await this.database.transaction(async (sql) => {
      await alongside?.(sql);
      const kept: DeliveryReceipt[] = [];
      for (const receipt of receipts) {
        if (await this.apply(sql, receipt, at)) continue;
        await this.kept.keep(sql, receipt, at);
        kept.push(receipt);
      }
      return kept;
    });
    for (const receipt of receipts) if (!unmatched.includes(receipt)) this.reached(receipt);
    for (const receipt of unmatched) {
      this.logger.log({ provider: receipt.provider, providerId: receipt.providerId, status: receipt.providerStatus }, 'receipt for an unknown message id kept');
      // the message's provider id may have been committed while this receipt was being kept
      await this.applyKept(receipt.provider, [receipt.providerId]);
    }
  }

  /**
   * Once provider ids are committed: applies the kept receipts that name them.
   * Both this and `record` look again after their own commit, so that a
   * receipt and its message's acceptance recorded at the same moment still meet.
   */
  async applyKept(provider: string, providerIds: string[]): Promise<void> {
    if (providerIds.length === 0) return;
    if (!(await this.database.run((sql) => this.kept.anyFor(sql, provider, providerIds)))) return;
    const at = this.clock.now();
    const applied = await this.database.transaction(async (sql) => {
      const done: DeliveryReceipt[] = [];
      for (const receipt of await this.kept.lockFor(sql, provider, providerIds)) {
        if (!(await this.apply(sql, receipt, at))) continue;
        await this.kept.remove(sql, receipt.id);
        done.push(receipt);
      }
      return done;
    });
    for (const receipt of applied) this.reached(receipt);
  }

  @Interval(10 * 60_000)
  async purgeUnmatched(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - UNMATCHED_KEPT_MS);
    const dropped = await this.database.run((sql) => this.kept.purgeBefore(sql, before));
    if (dropped > 0) this.logger.warn({ dropped }, 'receipts for unknown message ids ignored');
    return dropped;
  }

  private reached(receipt: DeliveryReceipt): void {
    if (receipt.outcome) this.metrics.messageStatuses.inc({ kind: 'sms', status: receipt.outcome });
  }

  private async apply(sql: Sql, receipt: DeliveryReceipt, at: Date): Promise<boolean> {
    const messages = this.records.for('sms');
    return (await messages.applyReceipt?.(sql, receipt.provider, receipt.providerId, receipt.outcome, receipt.providerStatus, at)) ?? false;
  }
}
