import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { PriceRepository, type PricedChannel } from './price.repository.js';
import { segment, type SmsEncoding } from './segments.js';

export interface Quote {
  priceId: string;
  priceDescription: string;
  /** Hundredths: unit price × segments. */
  amount: number;
  segments: number;
  encoding: SmsEncoding | null;
}

/** What a message costs; knows nothing of what it is for. */
@Injectable()
export class BillingService {
  constructor(private readonly prices: PriceRepository) {}

  /** Null when no price applies to the destination. */
  async quote(sql: Sql, channel: PricedChannel, dialCode: string, text: string): Promise<Quote | null> {
    const price = await this.prices.find(sql, channel, dialCode);
    if (!price) return null;
    if (channel === 'EMAIL') {
      return { priceId: price.id, priceDescription: price.description, amount: price.amount, segments: 1, encoding: null };
    }
    const { encoding, parts } = segment(text);
    return {
      priceId: price.id,
      priceDescription: price.description,
      amount: price.amount * parts.length,
      segments: parts.length,
      encoding,
    };
  }
}
