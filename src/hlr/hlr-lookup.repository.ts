import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';
import type { HlrAnswer, Reachability } from './hlr-provider.js';

export const HLR_STATUSES = ['pending', 'completed', 'failed'] as const;
export type HlrStatus = (typeof HLR_STATUSES)[number];

/** A lookup as it is stored. */
export interface HlrLookupRecord {
  id: string;
  accountId: string;
  sandbox: boolean;
  lot: string;
  externalId: string | null;
  number: string;
  country: string | null;
  status: HlrStatus;
  valid: boolean | null;
  reachable: Reachability | null;
  ported: boolean | null;
  roaming: boolean | null;
  mccmnc: string | null;
  networkName: string | null;
  originalMccmnc: string | null;
  originalNetworkName: string | null;
  roamingCountry: string | null;
  roamingMccmnc: string | null;
  provider: string | null;
  providerId: string | null;
  providerStatus: string | null;
  error: string | null;
  /** Hundredths; 0 for sandbox lookups. */
  amount: number;
  webhookUrl: string | null;
  webhookResponse: string | null;
  /** Claims so far. */
  attempts: number;
  createdBy: string | null;
  createdAt: Date;
  doneAt: Date | null;
}

export type NewHlrLookup = Pick<HlrLookupRecord, 'id' | 'accountId' | 'sandbox' | 'lot' | 'externalId' | 'number' | 'country' | 'amount' | 'webhookUrl' | 'createdBy' | 'createdAt'> & {
  priceId: string;
};

/** The list filters, normalised. */
export interface HlrFilters {
  lot?: string;
  status?: HlrStatus;
}

interface HlrRow {
  id: string;
  account_id: string;
  sandbox: number | boolean;
  lot: string;
  external_id: string | null;
  number: string;
  country: string | null;
  status: HlrStatus;
  valid: number | boolean | null;
  reachable: Reachability | null;
  ported: number | boolean | null;
  roaming: number | boolean | null;
  mccmnc: string | null;
  network_name: string | null;
  original_mccmnc: string | null;
  original_network_name: string | null;
  roaming_country: string | null;
  roaming_mccmnc: string | null;
  provider: string | null;
  provider_id: string | null;
  provider_status: string | null;
  error: string | null;
  amount: number | string;
  webhook_url: string | null;
  webhook_response: string | null;
  attempts: number | string;
  created_by: string | null;
  created_at: string | Date;
  done_at: string | Date | null;
}

const COLUMNS = [
  'id', 'account_id', 'sandbox', 'lot', 'external_id', 'number', 'country', 'status', 'valid', 'reachable', 'ported', 'roaming', 'mccmnc',
  'network_name', 'original_mccmnc', 'original_network_name', 'roaming_country', 'roaming_mccmnc', 'provider', 'provider_id',
  'provider_status', 'error', 'amount', 'webhook_url', 'webhook_response', 'attempts', 'created_by', 'created_at', 'done_at',
];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM hlr_lookup`;
const LOOKUPS = new LeasedTable('hlr_lookup', COLUMNS);

/** What a lookup ended with: the provider's answer, or the reason it gave none. */
export type HlrOutcome = { status: 'completed'; provider: string; answer: HlrAnswer } | { status: 'failed'; provider: string; error: string };

/**
 * HLR lookups: written `pending` and due at once, claimed by the lookup
 * worker like every job table (LeasedTable), finished once by a conditional
 * update that the refund of a failed lookup rides on.
 */
@Injectable()
export class HlrLookupRepository {
  async insertMany(sql: Sql, lookups: NewHlrLookup[]): Promise<void> {
    await sql.insertManyLater(
      'hlr_lookup',
      lookups.map((lookup) => ({
        id: lookup.id,
        account_id: lookup.accountId,
        sandbox: lookup.sandbox,
        lot: lookup.lot,
        external_id: lookup.externalId,
        number: lookup.number,
        country: lookup.country,
        status: 'pending',
        message_price_id: lookup.priceId,
        amount: lookup.amount,
        webhook_url: lookup.webhookUrl,
        available_at: lookup.createdAt,
        created_by: lookup.createdBy,
        created_at: lookup.createdAt,
      })),
    );
  }

  /** The lookup of this mode with this id, else the first of the lot with this name. */
  async find(sql: Sql, accountId: string, sandbox: boolean, idOrLot: string): Promise<HlrLookupRecord | null> {
    const row =
      (await sql.get<HlrRow>(`${SELECT} WHERE id = ? AND account_id = ? AND sandbox = ?`, [idOrLot, accountId, sandbox])) ??
      (await sql.get<HlrRow>(`${SELECT} WHERE account_id = ? AND lot = ? AND sandbox = ? ORDER BY id LIMIT 1`, [accountId, idOrLot, sandbox]));
    return row ? toRecord(row) : null;
  }

  /** A page of the account's lookups of one mode, newest first; each filter has an index ending in the id. */
  async list(sql: Sql, accountId: string, sandbox: boolean, filters: HlrFilters, page: Page): Promise<HlrLookupRecord[]> {
    const conditions = ['account_id = ?'];
    const params: Param[] = [accountId];
    if (filters.lot !== undefined) {
      conditions.push('lot = ?');
      params.push(filters.lot);
    }
    if (filters.status !== undefined) {
      conditions.push('status = ?');
      params.push(filters.status);
    }
    conditions.push('sandbox = ?');
    params.push(sandbox);
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<HlrRow>(text, values)).map(toRecord);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<HlrLookupRecord[]> {
    return LOOKUPS.claim<HlrRow>(sql, lease, now, limit).then((rows) => rows.map((row) => ({ ...toRecord(row), attempts: Number(row.attempts) + 1 })));
  }

  renew(sql: Sql, ids: string[], lease: Lease, now: Date): Promise<number> {
    return LOOKUPS.renew(sql, ids, lease, now);
  }

  /**
   * Records the outcome of a pending lookup still claimed by `owner`: true
   * when this call finished it, false when it was finished already or taken
   * over (its outcome is then someone else's to record).
   */
  async finish(sql: Sql, id: string, owner: string, outcome: HlrOutcome, at: Date): Promise<boolean> {
    const answer = outcome.status === 'completed' ? outcome.answer : null;
    const changed = await sql.run(
      `UPDATE hlr_lookup SET status = ?, valid = ?, reachable = ?, ported = ?, roaming = ?, country = COALESCE(?, country), mccmnc = ?,
        network_name = ?, original_mccmnc = ?, original_network_name = ?, roaming_country = ?, roaming_mccmnc = ?, provider = ?,
        provider_id = ?, provider_status = ?, error = ?, done_at = ?, available_at = NULL
        WHERE id = ? AND status = 'pending' AND claimed_by = ?`,
      [
        outcome.status,
        answer?.valid ?? null,
        answer?.reachable ?? null,
        answer?.ported ?? null,
        answer?.roaming ?? null,
        answer?.country ?? null,
        answer?.mccmnc ?? null,
        answer?.networkName ?? null,
        answer?.originalMccmnc ?? null,
        answer?.originalNetworkName ?? null,
        answer?.roamingCountry ?? null,
        answer?.roamingMccmnc ?? null,
        outcome.provider,
        answer?.providerId ?? null,
        answer?.providerStatus ?? null,
        outcome.status === 'failed' ? outcome.error.slice(0, 255) : null,
        at,
        id,
        owner,
      ],
    );
    return changed === 1;
  }

  async recordWebhookResponse(sql: Sql, id: string, response: string): Promise<void> {
    await sql.later('UPDATE hlr_lookup SET webhook_response = ? WHERE id = ?', [response, id]);
  }
}

const readFlag = (value: number | boolean | null): boolean | null => (value === null ? null : readBoolean(value));

function toRecord(row: HlrRow): HlrLookupRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    sandbox: readBoolean(row.sandbox),
    lot: row.lot,
    externalId: row.external_id,
    number: row.number,
    country: row.country,
    status: row.status,
    valid: readFlag(row.valid),
    reachable: row.reachable,
    ported: readFlag(row.ported),
    roaming: readFlag(row.roaming),
    mccmnc: row.mccmnc,
    networkName: row.network_name,
    originalMccmnc: row.original_mccmnc,
    originalNetworkName: row.original_network_name,
    roamingCountry: row.roaming_country,
    roamingMccmnc: row.roaming_mccmnc,
    provider: row.provider,
    providerId: row.provider_id,
    providerStatus: row.provider_status,
    error: row.error,
    amount: Number(row.amount),
    webhookUrl: row.webhook_url,
    webhookResponse: row.webhook_response,
    attempts: Number(row.attempts),
    createdBy: row.created_by,
    createdAt: readTime(row.created_at),
    doneAt: readTime(row.done_at),
  };
}
