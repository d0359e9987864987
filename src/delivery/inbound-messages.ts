import { Injectable } from '@nestjs/common';

/** A mobile-originated SMS as a provider hands it over: a recipient wrote to one of our numbers. */
export interface MobileOriginated {
  provider: string;
  /** The provider's identifier of the message, when it gives one. */
  providerId: string | null;
  /** The writer's number, E.164. */
  from: string;
  /** The number written to, E.164. */
  to: string;
  text: string;
  /** How the text was coded on the air: GSM7, LATIN1, UCS2 or BINARY. */
  encoding: string;
}

/** What takes inbound messages in; resolves once the message is durable, so that the provider may then be acknowledged. */
export interface InboundReceiver {
  receive(message: MobileOriginated): Promise<void>;
}

/**
 * Where providers hand inbound messages. Delivery does not know what becomes
 * of them: the feature that stores them registers itself here.
 */
@Injectable()
export class InboundMessages implements InboundReceiver {
  private receiver: InboundReceiver | undefined;

  register(receiver: InboundReceiver): void {
    this.receiver = receiver;
  }

  receive(message: MobileOriginated): Promise<void> {
    if (!this.receiver) return Promise.reject(new Error('no receiver for inbound messages'));
    return this.receiver.receive(message);
  }
}
