import { Inject, Injectable } from '@nestjs/common';
import type { SecretBox } from '../common/crypto/secret-box.js';
import type { Sql } from '../database/sql.js';
import { CHUNK_SIZE, type ChunkDocument } from './outbox-chunk.js';
import type { EmailPayload, SmsPayload } from './outbox-payload.js';
import { OutboxWorker, type OutboxLane } from './outbox.worker.js';
import { OutboxRepository, type NewOutboxChunk, type NewOutboxEntry, type OutboxKind } from './outbox.repository.js';
import { PAYLOAD_BOX, storeChunk, storePayload } from './payload-box.js';

export interface Delivery<P> {
  recordId: string;
  accountId: string;
  /** Hundredths, refunded if the message cannot be handed over. */
  amount: number;
  test: boolean;
  deliverBefore: Date | null;
  at: Date;
  payload: P;
  /** A scheduled message: due at `availableAt`, promoted to pending when claimed (or dropped, cancelled). */
  scheduled?: boolean;
  availableAt?: Date;
}

/**
 * How other modules send: enqueue inside their transaction, then `committed()`
 * once it is committed. A message of its own (an OTP, a keyword's reply) goes
 * out in the priority lane; the messages of a lot in the bulk lane, beside the
 * others rather than before them.
 */
@Injectable()
export class DeliveryQueue {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly dispatcher: OutboxWorker,
    @Inject(PAYLOAD_BOX) private readonly box: SecretBox,
  ) {}

  enqueueSms(sql: Sql, delivery: Delivery<SmsPayload>): Promise<void> {
    return this.enqueue(sql, 'sms', delivery);
  }

  enqueueEmail(sql: Sql, delivery: Delivery<EmailPayload>): Promise<void> {
    return this.enqueue(sql, 'email', delivery);
  }

  /**
   * The messages of a lot (a bulk send's, a campaign's chunk of recipients) in
   * the bulk lane: one outbox entry per chunk of up to CHUNK_SIZE messages of
   * one account and one due time, in multi-row statements.
   */
  enqueueLot(sql: Sql, deliveries: ReadonlyArray<Delivery<SmsPayload>>): Promise<void> {
    return this.outbox.addChunks(
      sql,
      chunksOf(deliveries).map((chunk) => this.toChunk(chunk)),
    );
  }

  /** Wakes the dispatcher of the lane the unit wrote to (`priority` for messages without `bulk`), or of both when not said. */
  committed(lane?: OutboxLane): void {
    this.dispatcher.wake(lane);
  }

  private enqueue(sql: Sql, kind: OutboxKind, delivery: Delivery<SmsPayload | EmailPayload>) {
    return this.outbox.add(sql, toEntry(kind, delivery, storePayload(this.box, delivery.payload)));
  }

  private toChunk(deliveries: ReadonlyArray<Delivery<SmsPayload>>): NewOutboxChunk {
    const first = deliveries[0]!;
    const document: ChunkDocument = { messages: deliveries.map(({ recordId, amount, payload }) => ({ recordId, amount, payload })) };
    return {
      recordId: first.recordId,
      accountId: first.accountId,
      amount: deliveries.reduce((sum, delivery) => sum + delivery.amount, 0),
      messages: deliveries.length,
      payload: storeChunk(this.box, document),
      test: first.test,
      scheduled: first.scheduled ?? false,
      availableAt: first.availableAt ?? first.at,
    };
  }
}

/** Runs of deliveries of one account, mode and due time, cut every CHUNK_SIZE. */
function chunksOf<P>(deliveries: ReadonlyArray<Delivery<P>>): Array<Array<Delivery<P>>> {
  const chunks: Array<Array<Delivery<P>>> = [];
  let key = '';
  for (const delivery of deliveries) {
    const next = `${delivery.accountId} ${delivery.test} ${delivery.scheduled ?? false} ${(delivery.availableAt ?? delivery.at).getTime()}`;
    if (next !== key || chunks.at(-1)!.length === CHUNK_SIZE) chunks.push([]);
    key = next;
    chunks.at(-1)!.push(delivery);
  }
  return chunks;
}

/** Spelled out rather than spread: a bulk send makes a thousand at a time. */
function toEntry(kind: OutboxKind, delivery: Delivery<unknown>, payload: string): NewOutboxEntry {
  return {
    kind,
    recordId: delivery.recordId,
    accountId: delivery.accountId,
    amount: delivery.amount,
    payload,
    test: delivery.test,
    deliverBefore: delivery.deliverBefore,
    at: delivery.at,
    scheduled: delivery.scheduled,
    availableAt: delivery.availableAt,
  };
}
