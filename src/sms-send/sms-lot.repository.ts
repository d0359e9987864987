import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

/** The names of the account's lots: a lot a client names is unique per account. */
@Injectable()
export class SmsLotRepository {
  /** Fails on a unique key when the account has the lot already. */
  async insert(sql: Sql, lot: { accountId: string; lot: string; test: boolean; campaignId?: string; at: Date }): Promise<void> {
    await sql.run('INSERT INTO message_lot (account_id, lot, campaign_id, is_test, created_at) VALUES (?, ?, ?, ?, ?)', [
      lot.accountId,
      lot.lot,
      lot.campaignId ?? null,
      lot.test,
      lot.at,
    ]);
  }
}
