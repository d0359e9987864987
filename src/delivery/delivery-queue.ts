import { Inject, Injectable } from '@nestjs/common';
import type { SecretBox } from '../common/crypto/secret-box.js';
import type { Sql } from '../database/sql.js';
import type { EmailPayload, SmsPayload } from './outbox-payload.js';
import { OutboxWorker, type OutboxLane } from './outbox.worker.js';
import { OutboxRepository, type NewOutboxEntry, type OutboxKind } from './outbox.repository.js';
import { PAYLOAD_BOX, storePayload } from './payload-box.js';

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
  /** A message of a bulk send or a campaign (an OTP is not): it goes out in the bulk lane, beside the others rather than before them. */
  bulk?: boolean;
}

/** How other modules send: enqueue inside their transaction, then `committed()` once it is committed. */
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

  /** Many SMS in multi-row statements (a bulk send). */
  enqueueSmsMany(sql: Sql, deliveries: ReadonlyArray<Delivery<SmsPayload>>): Promise<void> {
    return this.outbox.addMany(
      sql,
      deliveries.map((delivery) => toEntry('sms', delivery, storePayload(this.box, delivery.payload))),
    );
  }

  /** Wakes the dispatcher of the lane the unit wrote to (`priority` for messages without `bulk`), or of both when not said. */
  committed(lane?: OutboxLane): void {
    this.dispatcher.wake(lane);
  }

  private enqueue(sql: Sql, kind: OutboxKind, delivery: Delivery<SmsPayload | EmailPayload>) {
    return this.outbox.add(sql, toEntry(kind, delivery, storePayload(this.box, delivery.payload)));
  }
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
    bulk: delivery.bulk,
  };
}
