import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { LowBalanceAlerts } from '../billing/low-balance-alerts.js';
import { Page, type ListPage } from '../common/list/page.js';
import { toAmount, toHundredths } from '../common/money.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { BalanceRepository, type BalanceRecord, type LedgerRecord } from './balance.repository.js';
import type { BalanceDto } from './dto/balance.dto.js';
import type { LedgerEntryDto, LedgerQueryDto } from './dto/ledger-entry.dto.js';
import { describeEntry } from './ledger-descriptions.js';

/**
 * The balance, its ledger and its low-balance alert (SPEC-2 §1.6). They are
 * the account's money, not traffic: a sandbox key, which never debits, reads
 * and sets the same ones as a live key.
 */
@Injectable()
export class BalanceService {
  constructor(
    private readonly database: Database,
    private readonly balances: BalanceRepository,
    private readonly alerts: LowBalanceAlerts,
  ) {}

  async get(principal: Principal): Promise<BalanceDto> {
    return toBalanceDto(await this.database.run((sql) => this.find(sql, principal.accountId)));
  }

  /** Sets or removes the threshold; `balance.low` is armed when the balance is at or above the new one. */
  async setAlert(principal: Principal, threshold: number | null): Promise<BalanceDto> {
    const hundredths = threshold === null ? null : toHundredths(threshold)!;
    const balance = await this.database.transaction(async (sql) => {
      await this.balances.setThreshold(sql, principal.accountId, hundredths);
      return this.find(sql, principal.accountId);
    });
    this.alerts.thresholdSet(principal.accountId, hundredths !== null);
    return toBalanceDto(balance);
  }

  list(principal: Principal, query: LedgerQueryDto): Promise<ListPage<LedgerEntryDto>> {
    const filters = { type: query.type, reference_id: query.reference_id, from: query.created_from, to: query.created_to };
    const page = Page.of(query, filters, 'integer');
    return this.database.run(async (sql) => {
      const rows = await this.balances.list(
        sql,
        principal.accountId,
        { kind: query.type, referenceId: query.reference_id, from: dateOf(query.created_from), to: dateOf(query.created_to) },
        page,
      );
      return page.answer(rows, (row) => row.id, toLedgerEntryDto);
    });
  }

  /** The caller's account exists while its credentials work. */
  private async find(sql: Sql, accountId: string): Promise<BalanceRecord> {
    return (await this.balances.find(sql, accountId))!;
  }
}

const dateOf = (text: string | undefined): Date | undefined => (text === undefined ? undefined : new Date(text));

function toBalanceDto(record: BalanceRecord): BalanceDto {
  return {
    balance: toAmount(record.balance),
    currency: record.currency,
    low_balance_threshold: record.threshold === null ? null : toAmount(record.threshold),
    updated_at: record.updatedAt.toISOString(),
  };
}

export function toLedgerEntryDto(record: LedgerRecord): LedgerEntryDto {
  return {
    id: record.id,
    type: record.kind,
    amount: toAmount(record.amount),
    balance_after: toAmount(record.balanceAfter),
    reference_type: record.referenceType,
    reference_id: record.referenceId,
    lot: record.lot,
    description: record.description ?? describeEntry(record.kind, record.referenceType),
    created_by: record.createdBy,
    created_at: record.createdAt.toISOString(),
  };
}
