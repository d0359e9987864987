import { Inject, Injectable } from '@nestjs/common';
import type { SecretBox } from '../common/crypto/secret-box.js';
import type { Sql } from '../database/sql.js';
import type { EmailPayload, SmsPayload } from './outbox-payload.js';
import { OutboxDispatcher, type OutboxLane } from './outbox-dispatcher.js';
import { OutboxRepository } from './outbox.repository.js';
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
    private readonly dispatcher: OutboxDispatcher,
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
    const entries = deliveries.map(({ payload, ...delivery }) => ({ kind: 'sms' as const, ...delivery, payload: storePayload(this.box, payload) }));
    return this.outbox.addMany(sql, entries);
  }

  /** Wakes the dispatcher of the lane the unit wrote to (`priority` for messages without `bulk`), or of both when not said. */
  committed(lane?: OutboxLane): void {
    this.dispatcher.wake(lane);
  }

  private enqueue(sql: Sql, kind: 'sms' | 'email', { payload, ...delivery }: Delivery<SmsPayload | EmailPayload>) {
    return this.outbox.add(sql, { kind, ...delivery, payload: storePayload(this.box, payload) });
  }
}
