import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { TtlCache } from '../common/ttl-cache.js';
import { PriceRepository, type Price, type PricedChannel } from './price.repository.js';
import { segment, type SmsEncoding } from './segments.js';

export interface Quote {
  priceId: string;
  priceDescription: string;
  /** Hundredths: unit price × segments. */
  amount: number;
  segments: number;
  encoding: SmsEncoding | null;
}

/** Prices change only with a migration; a running service picks a change up within this long. */
const PRICE_CACHE_MS = 60_000;

/** What a message costs; knows nothing of what it is for. */
@Injectable()
export class BillingService {
  private readonly cache = new TtlCache<Price | null>(PRICE_CACHE_MS, 1_000);

  constructor(private readonly prices: PriceRepository) {}

  /** Null when no price applies to the destination. */
  async quote(sql: Sql, channel: PricedChannel, dialCode: string, text: string): Promise<Quote | null> {
    const price = await this.unitPrice(sql, channel, dialCode);
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

  /** The price row that applies to the destination (its own, else the channel's `*`); null when none does. */
  async unitPrice(sql: Sql, channel: PricedChannel, dialCode: string): Promise<Price | null> {
    const key = `${channel}|${dialCode}`;
    const now = Date.now();
    const cached = this.cache.get(key, now);
    if (cached !== undefined) return cached;
    const price = (await this.prices.find(sql, channel, dialCode)) ?? null;
    this.cache.set(key, price, now);
    return price;
  }
}
