import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { ReceiptReport } from './delivery-receipt.js';
import type { OutboxKind } from './outbox.repository.js';
import type { SubmitAttempt } from './submit-log.js';

/**
 * Where the delivery state of one kind of message lives. Delivery moves the
 * state without knowing what the message is for.
 */
export interface DeliveryRecordStore {
  /**
   * pending → sent; `providerIds` name the parts as the provider knows them,
   * the first one the message; they are kept for matching when receipts will name them.
   */
  markSent(sql: Sql, recordId: string, provider: string, providerIds: string[], at: Date, receiptsExpected: boolean): Promise<void>;
  /** pending → failed; true only for the call that made the change. */
  markFailed(sql: Sql, recordId: string, provider: string | null, providerStatus: string | null, at: Date): Promise<boolean>;
  /**
   * Scheduled records whose time has come, as their entries are claimed: the
   * ones still `scheduled` become pending; returns those that must not be
   * handed over (cancelled meanwhile).
   */
  promote?(sql: Sql, recordIds: string[]): Promise<string[]>;
  /** The provider's refusals of the message, after each of which it was (or will be) submitted again. */
  countRetry?(sql: Sql, recordId: string, times: number): Promise<void>;
  /** The submits of a batch's hand-overs and what became of each, by record, for the kinds that keep them (SMS). */
  recordAttempts?(sql: Sql, attempts: ReadonlyArray<{ recordId: string; attempts: readonly SubmitAttempt[] }>): Promise<void>;
  /** After a batch's outcomes are recorded, in the same unit of work: the records whose state may have moved. */
  settled?(sql: Sql, recordIds: string[], at: Date): Promise<void>;
  /**
   * Delivery receipts of one provider, in the order they came, for the kinds that get them (SMS); for each, whether it
   * named a known message (one that names none yet is for the caller to keep).
   */
  applyReceipts?(sql: Sql, provider: string, receipts: readonly ReceiptReport[], at: Date): Promise<boolean[]>;
}

@Injectable()
export class DeliveryRecords {
  private readonly stores = new Map<OutboxKind, DeliveryRecordStore>();

  register(kind: OutboxKind, store: DeliveryRecordStore): void {
    this.stores.set(kind, store);
  }

  for(kind: OutboxKind): DeliveryRecordStore {
    const store = this.stores.get(kind);
    if (!store) throw new Error(`no delivery record store for ${kind} messages`);
    return store;
  }
}
