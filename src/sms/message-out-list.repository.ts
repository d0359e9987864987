import { Injectable } from '@nestjs/common';
import { createdRange, type KeySource, type Page } from '../common/list/page.js';
import { placeholders, readTime, type Param, type Sql } from '../database/sql.js';
import type { MessageFilters } from './message-filters.js';
import { COMPANY_COLUMNS, toView, VIEW_COLUMNS, VIEW_JOINS, type MessageOutView } from './message-out-view.js';

const BY_ACCOUNT = 'IDX_message_out_account_id';
const BY_STATUS = 'IDX_message_out_account_status';
const BY_LOT = 'IDX_message_out_account_lot';
const BY_EXTERNAL_ID = 'IDX_message_out_account_external';
const BY_CAMPAIGN = 'IDX_message_out_account_campaign';
const BY_CONTACT = 'IDX_message_out_account_contact';
const BY_RECIPIENT = 'IDX_message_out_account_to';

interface Condition {
  text: string;
  params: Param[];
}

/** Rows matching `condition`, read in key order through `index`. */
interface Arm {
  index: string;
  condition: Condition;
}

/** A filter's condition and, for a filter an index serves, the arms that read its rows in key order (one per alternative). */
interface Part {
  condition: Condition;
  arms?: Arm[];
}

/** The messages of a lot in one status. */
export interface LotStatusRow {
  status: string;
  count: number;
  /** Hundredths. */
  amount: number;
  campaignId: string | null;
  createdAt: Date;
}

const condition = (text: string, ...params: Param[]): Condition => ({ text, params });
const served = (index: string, filter: Condition): Part => ({ condition: filter, arms: [{ index, condition: filter }] });

/** The reads of many messages: GET /sms/out pages and GET /sms/lot/{lot} summaries. */
@Injectable()
export class MessageOutListRepository {
  /**
   * A page of the account's messages of one mode, newest first. The page's
   * keys are read first, through the index of the most selective filter given
   * (lot, external_id, campaign, contact, recipient, status; else the
   * account's own), in key order, the other filters checked on the way; then
   * only those rows are read with their relations, and the account once (in
   * the same round trip on MariaDB). `contactPhone` is the number of the
   * contact filtered on, whose messages include those to it that name no contact.
   */
  async page(sql: Sql, accountId: string, test: boolean, filters: MessageFilters, contactPhone: string | null, page: Page): Promise<MessageOutView[]> {
    // past a cursor, which is below created_to, the range's end would be a second upper bound on the key, and SQLite
    // would seek from it rather than from the cursor, reading every row between them
    const bounded = page.after === null ? filters : { ...filters, createdTo: undefined };
    const [keys, params] = page.keys('m.uniq_id', keySources(sql, accountId, test, bounded, contactPhone));
    const [[company], rows] = await sql.allEach<[Array<Record<string, unknown>>, Array<Record<string, unknown>>]>(
      [`SELECT ${COMPANY_COLUMNS} FROM account a WHERE a.id = ?`, [accountId]],
      [
        `SELECT ${VIEW_COLUMNS} FROM (${keys}) keyset_page ${sql.joinInOrder} message_out m ON m.uniq_id = keyset_page.page_key ${VIEW_JOINS}
          ORDER BY keyset_page.page_key DESC`,
        params,
      ],
    );
    return rows.map((row) => toView({ ...row, ...company }));
  }

  /** The lot's messages of one mode, counted by status in one pass over the lot's index range. */
  async summariseLot(sql: Sql, accountId: string, test: boolean, lot: string): Promise<LotStatusRow[]> {
    const rows = await sql.all<{ status: string; count: number | string; amount: number | string; campaign_id: string | null; created_at: string | Date }>(
      // named: SQLite would rather walk the account's status index for the order of the grouping
      `SELECT m.status, COUNT(*) AS count, SUM(m.amount) AS amount, MAX(m.campaign_id) AS campaign_id, MIN(m.created_at) AS created_at
         FROM ${sql.indexed('message_out', 'm', BY_LOT)} WHERE m.account_id = ? AND m.lot = ? AND m.is_test = ? GROUP BY m.status`,
      [accountId, lot, test],
    );
    return rows.map((row) => ({
      status: row.status,
      count: Number(row.count),
      amount: Number(row.amount),
      campaignId: row.campaign_id,
      createdAt: readTime(row.created_at),
    }));
  }
}

function keySources(sql: Sql, accountId: string, test: boolean, filters: MessageFilters, contactPhone: string | null): KeySource[] {
  const range = createdRange('m.uniq_id', filters.createdFrom, filters.createdTo);
  const always = [condition('m.account_id = ?', accountId), condition('m.is_test = ?', test), ...range.conditions.map((text, n) => condition(text, range.params[n]))];
  const parts = filterParts(filters, contactPhone);
  const leading = parts.find((part) => part.arms);
  const others = parts.filter((part) => part !== leading).map((part) => part.condition);
  const arms: Array<{ index: string; condition?: Condition }> = leading?.arms ?? [{ index: BY_ACCOUNT }];
  return arms.map((arm) => {
    const conditions = [...always, ...(arm.condition ? [arm.condition] : []), ...others];
    return { from: sql.indexed('message_out', 'm', arm.index), conditions: conditions.map((c) => c.text), params: conditions.flatMap((c) => c.params) };
  });
}

/** The filters given, those an index serves first, the most selective first. */
function filterParts(filters: MessageFilters, contactPhone: string | null): Part[] {
  const parts: Part[] = [];
  if (filters.lot !== undefined) parts.push(served(BY_LOT, condition('m.lot = ?', filters.lot)));
  if (filters.externalId !== undefined) parts.push(served(BY_EXTERNAL_ID, condition('m.external_id = ?', filters.externalId)));
  if (filters.campaignId !== undefined) parts.push(served(BY_CAMPAIGN, condition('m.campaign_id = ?', filters.campaignId)));
  if (filters.contactId !== undefined) parts.push(contactPart(filters.contactId, contactPhone));
  if (filters.recipient !== undefined) parts.push(served(BY_RECIPIENT, condition('m.recipient = ?', filters.recipient)));
  if (filters.statuses !== undefined) {
    const statuses = filters.statuses;
    parts.push({
      condition: condition(`m.status IN (${placeholders(statuses)})`, ...statuses),
      arms: statuses.map((status) => ({ index: BY_STATUS, condition: condition('m.status = ?', status) })),
    });
  }
  if (filters.type !== undefined) parts.push({ condition: condition('m.type = ?', filters.type) });
  if (filters.senderId !== undefined) parts.push({ condition: condition('m.sender_id = ?', filters.senderId) });
  return parts;
}

/** The messages that named the contact, and those to its number that named none. */
function contactPart(contactId: string, phone: string | null): Part {
  const named = condition('m.contact_id = ?', contactId);
  if (phone === null) return served(BY_CONTACT, named);
  const byPhone = condition('m.contact_id IS NULL AND m.recipient = ?', phone);
  return {
    condition: condition(`(${named.text} OR (${byPhone.text}))`, contactId, phone),
    arms: [
      { index: BY_CONTACT, condition: named },
      { index: BY_RECIPIENT, condition: byPhone },
    ],
  };
}
