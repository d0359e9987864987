import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { DeliveryRecordStore } from '../delivery/delivery-records.js';
import type { ReceiptReport } from '../delivery/delivery-receipt.js';
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

  /**
   * Receipts in the order they came: each one's message moved, with the event of its change. A message named twice
   * (two parts, or a receipt repeated) takes its receipts in turns, one per message a turn, so that each change
   * is made and reported as it would be alone.
   */
  async applyReceipts(sql: Sql, provider: string, receipts: readonly ReceiptReport[], at: Date): Promise<boolean[]> {
    const owners = await this.messages.findByProviderIds(sql, provider, [...new Set(receipts.map((receipt) => receipt.providerId))]);
    let waiting = receipts.flatMap((receipt) => {
      const uniqId = owners.get(receipt.providerId);
      return uniqId === undefined ? [] : [{ ...receipt, uniqId }];
    });
    while (waiting.length > 0) {
      const turn = new Map<string, ReceiptReport>();
      const later: typeof waiting = [];
      for (const receipt of waiting) {
        if (turn.has(receipt.uniqId)) later.push(receipt);
        else turn.set(receipt.uniqId, receipt);
      }
      await this.applyTurn(sql, turn, at);
      waiting = later;
    }
    return receipts.map((receipt) => owners.has(receipt.providerId));
  }

  /** One receipt per message: a statement per outcome and provider status, then the events of the messages that moved. */
  private async applyTurn(sql: Sql, receipts: ReadonlyMap<string, ReceiptReport>, at: Date): Promise<void> {
    const alike = Map.groupBy(receipts, ([, receipt]) => `${receipt.outcome}:${receipt.providerStatus}`);
    for (const group of alike.values()) {
      const { outcome, providerStatus } = group[0]![1];
      await this.messages.applyReceipts(sql, group.map(([uniqId]) => uniqId), outcome, providerStatus, at);
    }
    const moved = [...receipts].filter(([, receipt]) => receipt.outcome !== null).map(([uniqId]) => uniqId);
    if (moved.length > 0) await this.events.changed(sql, moved, at);
  }
}
