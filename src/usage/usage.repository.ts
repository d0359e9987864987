import { Injectable } from '@nestjs/common';
import { uuidV7Floor } from '../common/ids.js';
import { Database } from '../database/database.js';
import { ReportReads } from '../database/report-reads.js';
import type { Dialect, Param } from '../database/sql.js';

/** Messages of one UTC slot and status. */
export interface SlotCounts {
  /** Start of the slot, UTC. */
  slot: Date;
  status: string;
  messages: number;
  segments: number;
  /** Hundredths. */
  amount: number;
}

interface SlotRow {
  slot: string;
  status: string;
  messages: number | string;
  segments: number | string;
  amount: number | string;
}

export interface UsageFilters {
  accountId: string;
  sandbox: boolean;
  from: Date;
  to: Date;
  type?: string;
  senderId?: string;
  campaignId?: string;
  country?: string;
}

/**
 * Counts of the account's messages by UTC slot (an hour, or a quarter of an
 * hour for zones whose offset is not whole hours) and status, read through
 * the uniq_id range of the dates (a UUID v7 is time-ordered): an index range,
 * never the whole table. Unfiltered, the account's index holds every column
 * counted, and no message's row is read. A year of a busy account is a
 * million index entries: the count is a report read (ReportReads), off SQLite's serving thread.
 */
@Injectable()
export class UsageRepository {
  constructor(
    private readonly database: Database,
    private readonly reports: ReportReads,
  ) {}

  async countsBySlot(filters: UsageFilters, slotMinutes: 15 | 60): Promise<SlotCounts[]> {
    const { query, params } = slotCountStatement(this.database.dialect, filters, slotMinutes);
    const rows = await this.reports.all<SlotRow>(query, params);
    return rows.map((row) => ({
      slot: new Date(`${row.slot.replace(' ', 'T')}:00Z`),
      status: row.status,
      messages: Number(row.messages),
      segments: Number(row.segments),
      amount: Number(row.amount),
    }));
  }

  /** The account's OTPs of the range (a range of its ids), their status read from the index that holds them. */
  async otpCounts(filters: Pick<UsageFilters, 'accountId' | 'sandbox' | 'from' | 'to' | 'country'>): Promise<OtpCounts> {
    const country = filters.country === undefined ? '' : ' AND country = ?';
    const [row] = await this.reports.all<{ sent: number | string; verified: number | string | null }>(
      `SELECT COUNT(*) AS sent, SUM(CASE WHEN status = 'verified' THEN 1 ELSE 0 END) AS verified
         FROM otp WHERE account_id = ? AND is_test = ? AND uniq_id >= ? AND uniq_id < ?${country}`,
      [filters.accountId, filters.sandbox, uuidV7Floor(filters.from), uuidV7Floor(filters.to), ...(filters.country === undefined ? [] : [filters.country])],
    );
    return { sent: Number(row?.sent ?? 0), verified: Number(row?.verified ?? 0) };
  }
}

/** The OTPs accepted in a range and those of them verified. */
export interface OtpCounts {
  sent: number;
  verified: number;
}

/** The count by slot and status; the bench EXPLAINs it on its filled table. */
export function slotCountStatement(dialect: Dialect, filters: UsageFilters, slotMinutes: 15 | 60): { query: string; params: Param[] } {
  const conditions = ['account_id = ?', 'is_test = ?', 'uniq_id >= ?', 'uniq_id < ?'];
  const params: Param[] = [filters.accountId, filters.sandbox, uuidV7Floor(filters.from), uuidV7Floor(filters.to)];
  for (const [column, value] of [
    ['type', filters.type],
    ['sender_id', filters.senderId],
    ['campaign_id', filters.campaignId],
    ['country', filters.country],
  ] as const) {
    if (value === undefined) continue;
    conditions.push(`${column} = ?`);
    params.push(value);
  }
  const query = `SELECT ${slotOf(dialect, slotMinutes)} AS slot, status, COUNT(*) AS messages, SUM(page) AS segments, SUM(amount) AS amount
         FROM message_out WHERE ${conditions.join(' AND ')} GROUP BY slot, status`;
  return { query, params };
}

/**
 * `YYYY-MM-DD HH:MM` of the slot's start, UTC. SQLite holds times as `YYYY-MM-DD HH:MM:SS.sss` text in UTC, whose
 * leading characters are the hour: cut out, they cost a fraction of `strftime`, which parses each value first.
 */
function slotOf(dialect: Dialect, minutes: 15 | 60): string {
  if (dialect === 'mysql') {
    return minutes === 60
      ? "DATE_FORMAT(created_at, '%Y-%m-%d %H:00')"
      : "CONCAT(DATE_FORMAT(created_at, '%Y-%m-%d %H:'), LPAD(FLOOR(MINUTE(created_at) / 15) * 15, 2, '0'))";
  }
  return minutes === 60
    ? "substr(created_at, 1, 14) || '00'"
    : "substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15)";
}
