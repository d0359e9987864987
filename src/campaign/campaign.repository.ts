import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { placeholders, readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';
import type { DeliveryWindow } from '../sending/delivery-window.js';
import type { CampaignStatus } from './campaign-status.js';

/** Numbers left out at launch, by reason. */
export interface Exclusions {
  desinscrit: number;
  numero_invalide: number;
  doublon: number;
  destination_non_prise_en_charge: number;
  exclu_par_groupe: number;
}

export const NO_EXCLUSIONS: Exclusions = { desinscrit: 0, numero_invalide: 0, doublon: 0, destination_non_prise_en_charge: 0, exclu_par_groupe: 0 };

export interface CampaignRecord {
  id: string;
  accountId: string;
  sandbox: boolean;
  name: string;
  message: string;
  senderId: string | null;
  groupIds: string[];
  excludeGroupIds: string[];
  sendAt: Date | null;
  deliveryWindow: DeliveryWindow | null;
  webhookUrl: string | null;
  appendOptOut: boolean;
  status: CampaignStatus;
  lot: string | null;
  recipients: number;
  excluded: Exclusions | null;
  /** Hundredths. */
  amount: number;
  refunded: number;
  /** Recipients already turned into messages. */
  position: number;
  cancelledRecipients: number;
  /** Claims so far. */
  attempts: number;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  launchedAt: Date | null;
  startedAt: Date | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
}

/** What a draft is made of; the rest is set by launch, the worker and cancel. */
export type DraftFields = Pick<
  CampaignRecord,
  'name' | 'message' | 'senderId' | 'groupIds' | 'excludeGroupIds' | 'sendAt' | 'deliveryWindow' | 'webhookUrl' | 'appendOptOut'
>;

/** A recipient frozen at launch: its number, its text and what it costs. */
export interface CampaignRecipient {
  n: number;
  contactId: string | null;
  phone: string;
  country: string | null;
  priceId: string;
  message: string;
  segments: number;
  encoding: string;
  /** Hundredths. */
  amount: number;
}

type Row = Record<string, unknown>;

const COLUMNS = [
  'id', 'account_id', 'sandbox', 'name', 'message', 'sender_id', 'group_ids', 'exclude_group_ids', 'send_at', 'delivery_window',
  'webhook_url', 'append_opt_out', 'status', 'lot', 'recipients', 'excluded', 'amount', 'refunded', 'position', 'cancelled_recipients',
  'attempts', 'created_by', 'created_at', 'updated_at', 'launched_at', 'started_at', 'completed_at', 'cancelled_at', 'cancel_reason',
];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM campaign`;
const CAMPAIGNS = new LeasedTable('campaign', COLUMNS);
const RECIPIENTS_PER_ROUND_TRIP = 4096;

/**
 * Campaigns and their frozen recipients. A launched campaign is a job row
 * (LeasedTable) while it has work: due at its `send_at`, then again after
 * every chunk, then until its messages are handed over; null afterwards.
 */
@Injectable()
export class CampaignRepository {
  async insert(sql: Sql, campaign: CampaignRecord): Promise<void> {
    await sql.insert('campaign', {
      id: campaign.id,
      account_id: campaign.accountId,
      sandbox: campaign.sandbox,
      ...draftColumns(campaign),
      status: campaign.status,
      created_by: campaign.createdBy,
      created_at: campaign.createdAt,
      updated_at: campaign.updatedAt,
    });
  }

  /** The campaign of the account, in the key's mode; locked until the unit ends when `lock`. */
  async find(sql: Sql, accountId: string, sandbox: boolean, id: string, lock = false): Promise<CampaignRecord | null> {
    const row = await sql.get<Row>(`${SELECT} WHERE id = ? AND account_id = ? AND sandbox = ?${lock ? sql.forUpdate : ''}`, [id, accountId, sandbox]);
    return row ? toRecord(row) : null;
  }

  async list(sql: Sql, accountId: string, sandbox: boolean, status: CampaignStatus | undefined, page: Page): Promise<CampaignRecord[]> {
    const conditions = ['account_id = ?', 'sandbox = ?'];
    const params: Param[] = [accountId, sandbox];
    if (status !== undefined) {
      conditions.push('status = ?');
      params.push(status);
    }
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<Row>(text, values)).map(toRecord);
  }

  async updateDraft(sql: Sql, id: string, fields: DraftFields, at: Date): Promise<void> {
    const columns = { ...draftColumns(fields), updated_at: at };
    await sql.run(`UPDATE campaign SET ${Object.keys(columns).map((column) => `${column} = ?`).join(', ')} WHERE id = ? AND status = 'draft'`, [
      ...Object.values(columns),
      id,
    ]);
  }

  async delete(sql: Sql, id: string): Promise<void> {
    await sql.run("DELETE FROM campaign WHERE id = ? AND status = 'draft'", [id]);
  }

  /** The messages of each campaign by status: one GROUP BY on the (account_id, campaign_id) index. */
  async messageCounts(sql: Sql, accountId: string, campaignIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
    const counts = new Map<string, Map<string, number>>(campaignIds.map((id) => [id, new Map()]));
    if (campaignIds.length === 0) return counts;
    const rows = await sql.all<{ campaign_id: string; status: string; n: number | string }>(
      `SELECT campaign_id, status, COUNT(*) AS n FROM message_out WHERE account_id = ? AND campaign_id IN (${placeholders(campaignIds)})
        GROUP BY campaign_id, status`,
      [accountId, ...campaignIds],
    );
    for (const row of rows) counts.get(row.campaign_id)!.set(row.status, Number(row.n));
    return counts;
  }

  /** The campaign's messages still `scheduled`, locked until the unit ends (MySQL), so that the dispatcher either promoted them first or drops them. */
  async lockScheduledMessages(sql: Sql, accountId: string, campaignId: string): Promise<Array<{ uniqId: string; amount: number }>> {
    const rows = await sql.all<{ uniq_id: string; amount: number | string }>(
      `SELECT uniq_id, amount FROM message_out WHERE account_id = ? AND campaign_id = ? AND status = 'scheduled'${sql.forUpdate}`,
      [accountId, campaignId],
    );
    return rows.map((row) => ({ uniqId: row.uniq_id, amount: Number(row.amount) }));
  }

  /** Whether any message of the campaign is still to be handed over. */
  async hasMessagesWaiting(sql: Sql, accountId: string, campaignId: string): Promise<boolean> {
    const row = await sql.get(
      "SELECT 1 AS waiting FROM message_out WHERE account_id = ? AND campaign_id = ? AND status IN ('scheduled', 'pending') LIMIT 1",
      [accountId, campaignId],
    );
    return row !== undefined;
  }

  /**
   * Sent a few thousand rows per round trip: on MySQL the rows would otherwise wait for the commit, and a launch's
   * 50,000 recipients as one multi-statement text do not fit in the service's heap beside the audience they come from.
   */
  async insertRecipients(sql: Sql, campaignId: string, recipients: readonly CampaignRecipient[]): Promise<void> {
    for (let start = 0; start < recipients.length; start += RECIPIENTS_PER_ROUND_TRIP) {
      await sql.insertManyLater(
        'campaign_recipient',
        recipients.slice(start, start + RECIPIENTS_PER_ROUND_TRIP).map((recipient) => ({
          campaign_id: campaignId,
          n: recipient.n,
          contact_id: recipient.contactId,
          phone: recipient.phone,
          country: recipient.country,
          message_price_id: recipient.priceId,
          message: recipient.message,
          segments: recipient.segments,
          encoding: recipient.encoding,
          amount: recipient.amount,
        })),
      );
      await sql.flush();
    }
  }

  /** Up to `limit` recipients from the `from`-th on, in order. */
  async recipients(sql: Sql, campaignId: string, from: number, limit: number): Promise<CampaignRecipient[]> {
    const rows = await sql.all<Row>(
      `SELECT n, contact_id, phone, country, message_price_id, message, segments, encoding, amount FROM campaign_recipient
        WHERE campaign_id = ? AND n >= ? ORDER BY n LIMIT ${Number(limit)}`,
      [campaignId, from],
    );
    return rows.map((row) => ({
      n: Number(row.n),
      contactId: row.contact_id as string | null,
      phone: row.phone as string,
      country: row.country as string | null,
      priceId: row.message_price_id as string,
      message: row.message as string,
      segments: Number(row.segments),
      encoding: row.encoding as string,
      amount: Number(row.amount),
    }));
  }

  /** What the recipients from the `from`-th on cost (hundredths). */
  async amountFrom(sql: Sql, campaignId: string, from: number): Promise<number> {
    const row = await sql.get<{ total: number | string | null }>('SELECT SUM(amount) AS total FROM campaign_recipient WHERE campaign_id = ? AND n >= ?', [
      campaignId,
      from,
    ]);
    return Number(row?.total ?? 0);
  }

  /** Records a launch: the frozen audience's size and cost, the lot, and when the worker is due. */
  async launch(
    sql: Sql,
    id: string,
    launch: { status: 'scheduled' | 'running'; senderId: string; lot: string; recipients: number; excluded: Exclusions; amount: number; sendAt: Date; at: Date },
  ): Promise<void> {
    await sql.run(
      `UPDATE campaign SET status = ?, sender_id = ?, lot = ?, recipients = ?, excluded = ?, amount = ?, send_at = ?, available_at = ?,
        launched_at = ?, started_at = ?, updated_at = ? WHERE id = ? AND status = 'draft'`,
      [
        launch.status,
        launch.senderId,
        launch.lot,
        launch.recipients,
        JSON.stringify(launch.excluded),
        launch.amount,
        launch.sendAt,
        launch.status === 'running' ? launch.at : launch.sendAt,
        launch.at,
        launch.status === 'running' ? launch.at : null,
        launch.at,
        id,
      ],
    );
  }

  /** Due campaigns, leased to `lease.owner`. */
  async claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<CampaignRecord[]> {
    const rows = await CAMPAIGNS.claim<Row & { id: string }>(sql, lease, now, limit, { where: "status IN ('scheduled', 'running')", params: [] });
    return rows.map((row) => ({ ...toRecord(row), attempts: Number(row.attempts) + 1 }));
  }

  renew(sql: Sql, ids: string[], lease: Lease, now: Date): Promise<number> {
    return CAMPAIGNS.renew(sql, ids, lease, now);
  }

  /** In a unit that works on a campaign: extends its claim, or throws LeaseLost when it is no longer this instance's (taken over, cancelled). */
  hold(sql: Sql, queue: string, id: string, lease: Lease, now: Date): Promise<void> {
    return CAMPAIGNS.hold(sql, queue, id, lease, now);
  }

  /** Gives the running campaigns `owner` holds among `ids` back to every instance, due at once. */
  release(sql: Sql, ids: string[], owner: string, now: Date): Promise<number> {
    return CAMPAIGNS.release(sql, ids, owner, now);
  }

  /** A scheduled campaign whose time has come starts running. */
  async start(sql: Sql, id: string, at: Date): Promise<void> {
    await sql.run("UPDATE campaign SET status = 'running', started_at = ?, updated_at = ? WHERE id = ? AND status = 'scheduled'", [at, at, id]);
  }

  /**
   * Records that the recipients up to `to` are messages now, and gives the
   * campaign back to every instance, due at `dueAt`; false when its position
   * is no longer `from` (another instance moved it on).
   */
  async advance(sql: Sql, id: string, from: number, to: number, dueAt: Date): Promise<boolean> {
    const changed = await sql.run(
      "UPDATE campaign SET position = ?, available_at = ?, claimed_by = NULL WHERE id = ? AND position = ? AND status = 'running'",
      [to, dueAt, id, from],
    );
    return changed === 1;
  }

  async complete(sql: Sql, id: string, at: Date): Promise<void> {
    await sql.run(
      "UPDATE campaign SET status = 'done', completed_at = ?, updated_at = ?, available_at = NULL, claimed_by = NULL WHERE id = ? AND status = 'running'",
      [at, at, id],
    );
  }

  /** Ends the campaign: no instance claims it again, and one holding it loses its claim. */
  async cancel(sql: Sql, id: string, cancel: { cancelledRecipients: number; refunded: number; reason: string | null; at: Date }): Promise<void> {
    await sql.run(
      `UPDATE campaign SET status = 'cancelled', cancelled_recipients = ?, refunded = ?, cancel_reason = ?, cancelled_at = ?, updated_at = ?,
        available_at = NULL, claimed_by = NULL WHERE id = ?`,
      [cancel.cancelledRecipients, cancel.refunded, cancel.reason, cancel.at, cancel.at, id],
    );
  }
}

function draftColumns(fields: DraftFields): Record<string, Param> {
  return {
    name: fields.name,
    message: fields.message,
    sender_id: fields.senderId,
    group_ids: JSON.stringify(fields.groupIds),
    exclude_group_ids: JSON.stringify(fields.excludeGroupIds),
    send_at: fields.sendAt,
    delivery_window: fields.deliveryWindow === null ? null : JSON.stringify(fields.deliveryWindow),
    webhook_url: fields.webhookUrl,
    append_opt_out: fields.appendOptOut,
  };
}

function toRecord(row: Row): CampaignRecord {
  const time = (column: string) => readTime(row[column] as string | Date | null);
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    sandbox: readBoolean(row.sandbox as number | boolean),
    name: row.name as string,
    message: row.message as string,
    senderId: row.sender_id as string | null,
    groupIds: JSON.parse(row.group_ids as string) as string[],
    excludeGroupIds: JSON.parse(row.exclude_group_ids as string) as string[],
    sendAt: time('send_at'),
    deliveryWindow: row.delivery_window ? (JSON.parse(row.delivery_window as string) as DeliveryWindow) : null,
    webhookUrl: row.webhook_url as string | null,
    appendOptOut: readBoolean(row.append_opt_out as number | boolean),
    status: row.status as CampaignStatus,
    lot: row.lot as string | null,
    recipients: Number(row.recipients),
    // campaigns launched before `exclu_par_groupe` was counted have none
    excluded: row.excluded ? { ...NO_EXCLUSIONS, ...(JSON.parse(row.excluded as string) as Partial<Exclusions>) } : null,
    amount: Number(row.amount),
    refunded: Number(row.refunded),
    position: Number(row.position),
    cancelledRecipients: Number(row.cancelled_recipients),
    attempts: Number(row.attempts),
    createdBy: row.created_by as string,
    createdAt: time('created_at')!,
    updatedAt: time('updated_at')!,
    launchedAt: time('launched_at'),
    startedAt: time('started_at'),
    completedAt: time('completed_at'),
    cancelledAt: time('cancelled_at'),
    cancelReason: row.cancel_reason as string | null,
  };
}
