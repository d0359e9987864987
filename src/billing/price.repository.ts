import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

export type PricedChannel = 'SMS' | 'EMAIL' | 'HLR';

export interface Price {
  id: string;
  description: string;
  /** Hundredths, per SMS segment, per e-mail or per number looked up. */
  amount: number;
}

@Injectable()
export class PriceRepository {
  /** The row for the destination's calling code, else the channel's `*` row (two look-ups by the unique key). */
  async find(sql: Sql, channel: PricedChannel, dialCode: string): Promise<Price | undefined> {
    return (await this.byKey(sql, channel, dialCode)) ?? (dialCode === '*' ? undefined : this.byKey(sql, channel, '*'));
  }

  private async byKey(sql: Sql, channel: PricedChannel, dialCode: string): Promise<Price | undefined> {
    const row = await sql.get<{ id: string; description: string; amount: number | string }>(
      'SELECT id, description, amount FROM message_price WHERE channel = ? AND dial_code = ?',
      [channel, dialCode],
    );
    return row && { id: row.id, description: row.description, amount: Number(row.amount) };
  }
}
