import { Inject, Injectable } from '@nestjs/common';
import { deliveryConfig, type DeliveryConfig } from '../../config/delivery.config.js';
import type { Sql } from '../../database/sql.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { JobRunner } from '../../jobs/job-runner.js';
import { LeaseLost, type Lease } from '../../jobs/lease.js';
import { DeliveryReceipts } from '../delivery-receipts.js';
import { LogReceiptRepository, type DueLogReceipt } from './log-receipt.repository.js';

export const LOG_RECEIPT_QUEUE = 'log-receipts';
export const LOG_PROVIDER = 'log';

/**
 * The receipts of the `log` SMS provider, on every instance: each due one is
 * a DELIVRD receipt recorded through the same path as an SMSC's
 * (DeliveryReceipts: `sent → delivered`, the `sms.delivered` event, the
 * metrics), and its row deleted in that same unit of work, so a receipt is
 * applied once, and one due while every instance was down comes at the next start.
 */
@Injectable()
export class LogReceiptsWorker implements JobQueue<DueLogReceipt> {
  readonly name = LOG_RECEIPT_QUEUE;
  readonly batchSize = 100;
  readonly leaseMs = 30_000;
  readonly pollMs = 1_000;

  constructor(
    private readonly receipts: DeliveryReceipts,
    private readonly schedule: LogReceiptRepository,
    @Inject(deliveryConfig.KEY) config: DeliveryConfig,
    jobs: JobRunner,
  ) {
    if (config.smsProvider === LOG_PROVIDER && config.logReceiptDelayMs > 0) jobs.register(this);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<DueLogReceipt[]> {
    return this.schedule.claim(sql, lease, now, limit);
  }

  async process(due: DueLogReceipt[], lease: Lease): Promise<void> {
    const ids = due.map((receipt) => receipt.id);
    await this.receipts.recordAll(
      due.map((receipt) => ({ provider: LOG_PROVIDER, providerId: receipt.providerId, outcome: 'delivered' as const, providerStatus: 'DELIVRD' })),
      async (sql) => {
        if (!(await this.schedule.finish(sql, ids, lease.owner))) throw new LeaseLost(this.name, ids[0]!);
      },
    );
  }
}
