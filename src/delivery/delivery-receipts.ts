import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Batches } from '../common/batches.js';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { Metrics } from '../metrics/metrics.js';
import type { Sql } from '../database/sql.js';
import type { DeliveryReceipt } from './delivery-receipt.js';
import { DeliveryRecords } from './delivery-records.js';
import { ReceiptRepository } from './receipt.repository.js';

/** How long a receipt for an unknown provider id waits for its message. */
const UNMATCHED_KEPT_MS = 24 * 3600_000;
/** Receipts stored in one unit of work at most, when more come at once. */
const RECEIPTS_PER_UNIT = 500;

/**
 * Delivery receipts move an SMS to `delivered` or `undelivered`. One that
 * names no known message yet (it can overtake the record of the SMSC's
 * acceptance) is kept and applied when that record is written; one still
 * unmatched after a day is dropped.
 */
@Injectable()
export class DeliveryReceipts {
  private readonly logger = new Logger(DeliveryReceipts.name);
  private readonly coming = new Batches<DeliveryReceipt>((receipts) => this.recordAll(receipts), RECEIPTS_PER_UNIT);

  constructor(
    private readonly database: Database,
    private readonly records: DeliveryRecords,
    private readonly kept: ReceiptRepository,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Stores the receipt's effect; resolves once it is durable, so that the SMSC may then be acknowledged. Receipts that
   * come together are stored together, in one unit of work.
   */
  record(receipt: DeliveryReceipt): Promise<void> {
    return this.coming.add(receipt);
  }

  /** Stores the receipts' effects in one unit of work, with what `alongside` writes there (a job's mark that they are done). */
  async recordAll(receipts: readonly DeliveryReceipt[], alongside?: (sql: Sql) => Promise<void>): Promise<void> {
    const at = this.clock.now();
    const unmatched = await this.database.transaction(async (sql) => {
      await alongside?.(sql);
      const matched = await this.apply(sql, receipts, at);
      const kept = receipts.filter((receipt) => !matched.has(receipt));
      for (const receipt of kept) await this.kept.keep(sql, receipt, at);
      return kept;
    });
    for (const receipt of receipts) if (!unmatched.includes(receipt)) this.reached(receipt);
    for (const receipt of unmatched) {
      this.logger.log({ provider: receipt.provider, providerId: receipt.providerId, status: receipt.providerStatus }, 'receipt for an unknown message id kept');
    }
    // the messages' provider ids may have been committed while these receipts were being kept
    for (const [provider, providerIds] of byProvider(unmatched)) await this.applyKept(provider, providerIds.map((receipt) => receipt.providerId));
  }

  /**
   * In the unit of work that records these provider ids of sent messages: whether receipts kept for them wait, as
   * committed once it has committed (`applyKept` then applies them). Both this and `record` look again after their
   * own commit, so that a receipt and its message's acceptance recorded at the same moment still meet.
   */
  keptAfterCommit(sql: Sql, provider: string, providerIds: readonly string[]): Promise<() => boolean> {
    return this.kept.anyAfterCommit(sql, provider, providerIds);
  }

  /** Applies the kept receipts that name these provider ids, now committed. */
  async applyKept(provider: string, providerIds: string[]): Promise<void> {
    const at = this.clock.now();
    const applied = await this.database.transaction(async (sql) => {
      const kept = await this.kept.lockFor(sql, provider, providerIds);
      const matched = await this.apply(sql, kept, at);
      const done = kept.filter((receipt) => matched.has(receipt));
      await this.kept.remove(sql, done.map((receipt) => receipt.id));
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

  /** Applies the receipts, a few statements per provider whatever their number; the ones that named a known message. */
  private async apply<T extends DeliveryReceipt>(sql: Sql, receipts: readonly T[], at: Date): Promise<Set<T>> {
    const messages = this.records.for('sms');
    const matched = new Set<T>();
    for (const [provider, ofProvider] of byProvider(receipts)) {
      const found = (await messages.applyReceipts?.(sql, provider, ofProvider, at)) ?? [];
      for (const [index, receipt] of ofProvider.entries()) if (found[index]) matched.add(receipt);
    }
    return matched;
  }
}

const byProvider = <T extends DeliveryReceipt>(receipts: readonly T[]): Map<string, T[]> => Map.groupBy(receipts, (receipt) => receipt.provider);
