import { Injectable } from '@nestjs/common';
import type { Param, Sql } from '../database/sql.js';

export interface NewLot {
  accountId: string;
  lot: string;
  test: boolean;
  campaignId?: string;
  at: Date;
}

const INSERT = 'INSERT INTO message_lot (account_id, lot, campaign_id, is_test, created_at) VALUES (?, ?, ?, ?, ?)';

/** The names of the account's lots: a lot a client names is unique per account. */
@Injectable()
export class LotRepository {
  /** Fails on a unique key when the account has the lot already. */
  async insert(sql: Sql, lot: NewLot): Promise<void> {
    await sql.run(INSERT, paramsOf(lot));
  }

  /** A lot whose name was just generated, which no other can have: written with the next statement (see `Sql.later`). */
  async insertGenerated(sql: Sql, lot: NewLot): Promise<void> {
    await sql.later(INSERT, paramsOf(lot));
  }
}

const paramsOf = (lot: NewLot): Param[] => [lot.accountId, lot.lot, lot.campaignId ?? null, lot.test, lot.at];
