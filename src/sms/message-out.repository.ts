import { Injectable } from '@nestjs/common';
import { placeholders, readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import { COMPANY_COLUMNS, toView, VIEW_COLUMNS, VIEW_JOINS, type MessageOutView } from './message-out-view.js';
import { isUuid } from '../common/ids.js';
import type { MessageSource, MessageStatus } from './dto/message-out.dto.js';
import { activeWebhookJoin } from '../webhook/account-webhook.repository.js';

export interface NewMessageOut {
  uniqId: string;
  accountId: string;
  /** Null for a message that is not sold (a keyword's confirmation). */
  messagePriceId: string | null;
  type: 'otp' | 'sms';
  lot: string;
  externalId?: string | null;
  contactId?: string | null;
  campaignId?: string | null;
  /** `scheduled` waits for `sendAt`; otherwise `pending` at `at`. */
  status?: 'pending' | 'scheduled';
  source?: MessageSource;
  sendAt?: Date;
  webhookUrl?: string | null;
  senderId: string | null;
  recipient: string;
  /** ISO-2 country of the recipient; null for a number of no single country. */
  country?: string | null;
  /** As stored and shown: any code masked. */
  message: string;
  segments: number;
  encoding: string;
  /** Hundredths. */
  amount: number;
  createdBy: string;
  localNumber: string | null;
  language: string | null;
  test: boolean;
  at: Date;
}

/** What an `sms.*` event reports of a message. */
export interface MessageEventView {
  uniqId: string;
  accountId: string;
  lot: string;
  externalId: string | null;
  campaignId: string | null;
  recipient: string;
  sender: string | null;
  status: string;
  providerStatus: string | null;
  mccmnc: string | null;
  page: number;
  /** Hundredths. */
  amount: number;
  sendAt: Date | null;
  doneAt: Date | null;
  /** Status changes so far. */
  sequence: number;
  test: boolean;
  webhookUrl: string | null;
  /** The event types the account's webhook subscribes to, as stored; null when it has none that can be sent to. */
  accountWebhookEvents: string | null;
}

const CHUNK = 500;

const VIEW_SELECT = `SELECT ${VIEW_COLUMNS}, ${COMPANY_COLUMNS} FROM message_out m JOIN account a ON a.id = m.account_id ${VIEW_JOINS}`;

@Injectable()
export class MessageOutRepository {
  async insert(sql: Sql, message: NewMessageOut): Promise<void> {
    await sql.insertLater('message_out', toRow(message));
  }

  /** Many messages, in multi-row statements. */
  async insertMany(sql: Sql, messages: readonly NewMessageOut[]): Promise<void> {
    await sql.insertManyLater('message_out', messages.map(toRow));
  }

  /** By `uniq_id`, else the earliest message of the lot (uniq_ids are time-ordered); only within the account and key mode. */
  async findByIdOrLot(sql: Sql, accountId: string, test: boolean, idOrLot: string): Promise<MessageOutView | null> {
    const byId = await sql.get<Record<string, unknown>>(`${VIEW_SELECT} WHERE m.uniq_id = ? AND m.account_id = ? AND m.is_test = ?`, [
      idOrLot,
      accountId,
      test,
    ]);
    if (byId) return toView(byId);
    const byLot = await sql.get<Record<string, unknown>>(
      `${VIEW_SELECT} WHERE m.account_id = ? AND m.lot = ? AND m.is_test = ? ORDER BY m.uniq_id LIMIT 1`,
      [accountId, idOrLot, test],
    );
    return byLot ? toView(byLot) : null;
  }

  /**
   * scheduled → pending for messages whose time has come; returns those that
   * are neither (cancelled). The rows are locked first (MySQL), so a cancel
   * racing with this either comes first or finds them pending.
   */
  async promoteScheduled(sql: Sql, uniqIds: readonly string[]): Promise<string[]> {
    const rows = await sql.all<{ uniq_id: string; status: string }>(
      `SELECT uniq_id, status FROM message_out WHERE uniq_id IN (${placeholders(uniqIds)})${sql.forUpdate}`,
      uniqIds,
    );
    const due = rows.filter((row) => row.status === 'scheduled').map((row) => row.uniq_id);
    if (due.length > 0) {
      await sql.later(
        `UPDATE message_out SET status = 'pending', event_sequence = event_sequence + 1 WHERE uniq_id IN (${placeholders(due)}) AND status = 'scheduled'`,
        due,
      );
    }
    return rows.filter((row) => row.status !== 'scheduled' && row.status !== 'pending').map((row) => row.uniq_id);
  }

  /** The message (by uniq_id) or the messages of the lot, of the key's mode, locked until the unit ends (MySQL). */
  async lockForCancel(sql: Sql, accountId: string, test: boolean, idOrLot: string): Promise<Array<{ uniqId: string; status: string; amount: number }>> {
    const key = isUuid(idOrLot) ? 'uniq_id' : 'lot';
    const rows = await sql.all<{ uniq_id: string; status: string; amount: number | string }>(
      `SELECT uniq_id, status, amount FROM message_out WHERE account_id = ? AND ${key} = ? AND is_test = ?${sql.forUpdate}`,
      [accountId, idOrLot, test],
    );
    return rows.map((row) => ({ uniqId: row.uniq_id, status: row.status, amount: Number(row.amount) }));
  }

  /** scheduled → cancelled (the caller holds the rows). */
  async cancelScheduled(sql: Sql, uniqIds: readonly string[], at: Date): Promise<void> {
    for (let start = 0; start < uniqIds.length; start += CHUNK) {
      const chunk = uniqIds.slice(start, start + CHUNK);
      await sql.later(
        `UPDATE message_out SET status = 'cancelled', event_sequence = event_sequence + 1, done_at = ?
          WHERE uniq_id IN (${placeholders(chunk)}) AND status = 'scheduled'`,
        [at, ...chunk],
      );
    }
  }

  /** pending → sent, when the provider accepted the message; each part's id is kept when receipts will name it. */
  async markSent(sql: Sql, uniqId: string, provider: string, providerIds: string[], at: Date, receiptsExpected: boolean) {
    await sql.later(
      `UPDATE message_out SET status = 'sent', event_sequence = event_sequence + 1, provider = ?, provider_id = ?, send_at = ?
        WHERE uniq_id = ? AND status = 'pending'`,
      [provider, providerIds[0], at, uniqId],
    );
    if (receiptsExpected) {
      for (const [index, providerId] of providerIds.entries()) {
        await sql.insertLaterIfAbsent('message_part', { provider, provider_id: providerId, uniq_id: uniqId, part_no: index + 1 });
      }
    }
  }

  /** pending → failed; true only for the one call that made the change, so the refund happens once. */
  async markFailed(sql: Sql, uniqId: string, provider: string | null, providerStatus: string | null, at: Date) {
    const changed = await sql.run(
      `UPDATE message_out SET status = 'failed', event_sequence = event_sequence + 1, provider = COALESCE(?, provider),
         provider_status = ?, done_at = ? WHERE uniq_id = ? AND status = 'pending'`,
      [provider, providerStatus, at, uniqId],
    );
    return changed === 1;
  }

  async countRetry(sql: Sql, uniqId: string, times: number): Promise<void> {
    await sql.later('UPDATE message_out SET dlr_number_retry = dlr_number_retry + ? WHERE uniq_id = ?', [times, uniqId]);
  }

  /** The messages whose parts these provider ids name, by provider id; an id no sent message has (yet) is absent. */
  async findByProviderIds(sql: Sql, provider: string, providerIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await sql.all<{ provider_id: string; uniq_id: string }>(
      `SELECT provider_id, uniq_id FROM message_part WHERE provider = ? AND provider_id IN (${placeholders(providerIds)})`,
      [provider, ...providerIds],
    );
    return new Map(rows.map((row) => [row.provider_id, row.uniq_id]));
  }

  /**
   * Applies receipts of one outcome and provider status to these messages. A
   * negative receipt is final; a positive one does not undo it; one without an
   * outcome (en route, accepted) only notes the provider's status. A status
   * change counts in `event_sequence` (assigned first: MySQL reads the columns
   * a SET has already assigned).
   */
  async applyReceipts(
    sql: Sql,
    uniqIds: readonly string[],
    outcome: Extract<MessageStatus, 'delivered' | 'undelivered'> | null,
    providerStatus: string,
    at: Date,
  ): Promise<void> {
    if (outcome === null) {
      await sql.later(`UPDATE message_out SET provider_status = ? WHERE uniq_id IN (${placeholders(uniqIds)}) AND status = 'sent'`, [providerStatus, ...uniqIds]);
      return;
    }
    const from = outcome === 'delivered' ? "('sent', 'delivered')" : "('sent', 'delivered', 'undelivered')";
    await sql.later(
      `UPDATE message_out SET event_sequence = event_sequence + CASE WHEN status = ? THEN 0 ELSE 1 END,
         status = ?, provider_status = ?, done_at = ? WHERE uniq_id IN (${placeholders(uniqIds)}) AND status IN ${from}`,
      [outcome, outcome, providerStatus, at, ...uniqIds],
    );
  }

  /** What the `sms.*` events of these messages report, as they stand in this unit of work. */
  async findForEvents(sql: Sql, uniqIds: readonly string[]): Promise<MessageEventView[]> {
    if (uniqIds.length === 0) return [];
    const rows = await sql.all<Record<string, unknown>>(
      `SELECT m.uniq_id, m.account_id, m.lot, m.external_id, m.recipient, m.status, m.provider_status, m.mccmnc, m.page,
              m.amount, m.send_at, m.done_at, m.event_sequence, m.is_test, m.webhook_url, m.campaign_id, s.name AS sender_name,
              w.events AS webhook_events
         FROM message_out m LEFT JOIN sender s ON s.id = m.sender_id ${activeWebhookJoin('m.account_id')}
        WHERE m.uniq_id IN (${placeholders(uniqIds)})`,
      uniqIds,
    );
    return rows.map((row) => ({
      uniqId: row.uniq_id as string,
      accountId: row.account_id as string,
      lot: row.lot as string,
      externalId: (row.external_id ?? null) as string | null,
      campaignId: (row.campaign_id ?? null) as string | null,
      recipient: row.recipient as string,
      sender: (row.sender_name ?? null) as string | null,
      status: row.status as string,
      providerStatus: (row.provider_status ?? null) as string | null,
      mccmnc: (row.mccmnc ?? null) as string | null,
      page: Number(row.page),
      amount: Number(row.amount),
      sendAt: readTime(row.send_at as string | Date | null),
      doneAt: readTime(row.done_at as string | Date | null),
      sequence: Number(row.event_sequence),
      test: readBoolean(row.is_test),
      webhookUrl: (row.webhook_url ?? null) as string | null,
      accountWebhookEvents: (row.webhook_events ?? null) as string | null,
    }));
  }

  /** The last webhook attempt about the message (`webhook_response`). */
  async recordWebhookResponse(sql: Sql, uniqId: string, response: string): Promise<void> {
    await sql.later('UPDATE message_out SET webhook_response = ? WHERE uniq_id = ?', [response, uniqId]);
  }

  /** By `uniq_id`, whatever its account and mode (the operator's read). */
  async findAnywhere(sql: Sql, uniqId: string): Promise<MessageOutView | null> {
    const row = await sql.get<Record<string, unknown>>(`${VIEW_SELECT} WHERE m.uniq_id = ?`, [uniqId]);
    return row ? toView(row) : null;
  }

  /** Whether the account has this message (for routes that act on it without reading it). */
  async exists(sql: Sql, accountId: string, test: boolean, uniqId: string): Promise<boolean> {
    const found = await sql.get('SELECT 1 AS found FROM message_out WHERE uniq_id = ? AND account_id = ? AND is_test = ?', [uniqId, accountId, test]);
    return found !== undefined;
  }
}

function toRow(message: NewMessageOut): Record<string, Param> {
  return {
    uniq_id: message.uniqId,
    account_id: message.accountId,
    external_id: message.externalId ?? null,
    message_price_id: message.messagePriceId,
    type: message.type,
    lot: message.lot,
    sender_id: message.senderId,
    recipient: message.recipient,
    country: message.country ?? null,
    message: message.message,
    page: message.segments,
    message_encoding: message.encoding,
    amount: message.amount,
    send_at: message.sendAt ?? message.at,
    status: message.status ?? 'pending',
    source: message.source ?? 'api',
    contact_id: message.contactId ?? null,
    campaign_id: message.campaignId ?? null,
    webhook_url: message.webhookUrl ?? null,
    dlr_number_retry: 0,
    created_by: message.createdBy,
    retrieve: false,
    local_number: message.localNumber,
    language: message.language,
    is_test: message.test,
    created_at: message.at,
  };
}
