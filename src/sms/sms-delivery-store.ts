import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { DeliveryRecordStore } from '../delivery/delivery-records.js';
import type { ReceiptOutcome } from '../delivery/delivery-receipt.js';
import type { SubmitAttempt } from '../delivery/submit-log.js';
import { MessageAttemptRepository } from './message-attempt.repository.js';
import { MessageOutRepository } from './message-out.repository.js';
import { SmsStatusEvents } from './sms-status-events.js';

/** Where delivery moves an SMS's status: the message record, and the `sms.*` event of each change, in the same unit of work. */
@Injectable()
export class SmsDeliveryStore implements DeliveryRecordStore {
  constructor(
    private readonly messages: MessageOutRepository,
    private readonly events: SmsStatusEvents,
    private readonly attempts: MessageAttemptRepository,
  ) {}

  markSent(sql: Sql, uniqId: string, provider: string, providerIds: string[], at: Date, receiptsExpected: boolean): Promise<void> {
    return this.messages.markSent(sql, uniqId, provider, providerIds, at, receiptsExpected);
  }

  markFailed(sql: Sql, uniqId: string, provider: string | null, providerStatus: string | null, at: Date): Promise<boolean> {
    return this.messages.markFailed(sql, uniqId, provider, providerStatus, at);
  }

  promote(sql: Sql, uniqIds: string[]): Promise<string[]> {
    return this.messages.promoteScheduled(sql, uniqIds);
  }

  countRetry(sql: Sql, uniqId: string, times: number): Promise<void> {
    return this.messages.countRetry(sql, uniqId, times);
  }

  recordAttempts(sql: Sql, attempts: ReadonlyArray<{ recordId: string; attempts: readonly SubmitAttempt[] }>): Promise<void> {
    return this.attempts.add(sql, attempts);
  }

  /** Once a batch's hand-overs are recorded: the events of the changes, read back in one statement. */
  settled(sql: Sql, uniqIds: string[], at: Date): Promise<void> {
    return this.events.changed(sql, uniqIds, at);
  }

  /** A delivery receipt; false when it names no known message yet. */
  async applyReceipt(sql: Sql, provider: string, providerId: string, outcome: ReceiptOutcome | null, providerStatus: string, at: Date) {
    const uniqId = await this.messages.applyReceipt(sql, provider, providerId, outcome, providerStatus, at);
    if (uniqId === null) return false;
    if (outcome !== null) await this.events.changed(sql, [uniqId], at);
    return true;
  }
}
