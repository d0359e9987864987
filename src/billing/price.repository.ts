import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

export type PricedChannel = 'SMS' | 'EMAIL';

export interface Price {
  id: string;
  description: string;
  /** Hundredths, per SMS segment or per e-mail. */
  amount: number;
}

@Injectable()
export class PriceRepository {
  /** The row for the destination's calling code, else the channel's `*` row. */
  async find(sql: Sql, channel: PricedChannel, dialCode: string): Promise<Price | undefined> {
    const row = await sql.get<{ id: string; description: string; amount: number | string }>(
      `SELECT id, description, amount FROM message_price
        WHERE channel = ? AND dial_code IN (?, '*')
        ORDER BY CASE WHEN dial_code = '*' THEN 1 ELSE 0 END
        LIMIT 1`,
      [channel, dialCode],
    );
    return row && { id: row.id, description: row.description, amount: Number(row.amount) };
  }
}
