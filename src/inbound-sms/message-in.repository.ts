import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { readTime, type Param, type Sql } from '../database/sql.js';

/** An inbound SMS as it is stored. */
export interface MessageInRecord {
  id: string;
  accountId: string;
  from: string;
  to: string;
  message: string;
  encoding: string;
  keyword: string | null;
  provider: string;
  providerId: string | null;
  receivedAt: Date;
}

/** The list filters, normalised: `idRange` is the creation range as a range of keys. */
export interface MessageInFilters {
  from?: string;
  keyword?: string;
  idRange: { conditions: string[]; params: string[] };
}

interface MessageInRow {
  id: string;
  account_id: string;
  sender: string;
  recipient: string;
  message: string;
  message_encoding: string;
  keyword: string | null;
  provider: string;
  provider_id: string | null;
  received_at: string | Date;
}

const SELECT = 'SELECT id, account_id, sender, recipient, message, message_encoding, keyword, provider, provider_id, received_at FROM message_in';

/** Inbound SMS (`message_in`): written once when received, listed newest first. */
@Injectable()
export class MessageInRepository {
  async insert(sql: Sql, message: MessageInRecord): Promise<void> {
    await sql.insertLater('message_in', {
      id: message.id,
      account_id: message.accountId,
      sender: message.from,
      recipient: message.to,
      message: message.message,
      message_encoding: message.encoding,
      keyword: message.keyword,
      provider: message.provider,
      provider_id: message.providerId,
      received_at: message.receivedAt,
    });
  }

  /** A page of the account's inbound SMS, newest first; each filter has an index ending in the id. */
  async list(sql: Sql, accountId: string, filters: MessageInFilters, page: Page): Promise<MessageInRecord[]> {
    const conditions = ['account_id = ?'];
    const params: Param[] = [accountId];
    if (filters.from !== undefined) {
      conditions.push('sender = ?');
      params.push(filters.from);
    }
    if (filters.keyword !== undefined) {
      conditions.push('keyword = ?');
      params.push(filters.keyword);
    }
    conditions.push(...filters.idRange.conditions);
    params.push(...filters.idRange.params);
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<MessageInRow>(text, values)).map(toRecord);
  }
}

const toRecord = (row: MessageInRow): MessageInRecord => ({
  id: row.id,
  accountId: row.account_id,
  from: row.sender,
  to: row.recipient,
  message: row.message,
  encoding: row.message_encoding,
  keyword: row.keyword,
  provider: row.provider,
  providerId: row.provider_id,
  receivedAt: readTime(row.received_at),
});
