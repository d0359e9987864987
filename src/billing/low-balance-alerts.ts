import { Injectable } from '@nestjs/common';
import { TtlCache } from '../common/ttl-cache.js';
import { toAmount } from '../common/money.js';
import type { Sql } from '../database/sql.js';
import { BalanceEventDataDto, BalanceWebhookEventDto } from './dto/balance-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';

/**
 * Whether an account has a threshold is looked up at most once every 5 s per
 * account, so that a debit of an account without one costs nothing more. A
 * threshold set through another instance is therefore seen here within 5 s:
 * a crossing in that time is reported at the first debit after it, if the
 * balance is still below.
 */
export const THRESHOLD_CACHE_MS = 5_000;
const CAPACITY = 10_000;

/**
 * Clears the flag of an account whose balance is now below its threshold; the
 * flag is set while the balance is at or above it (see `LedgerRepository` and
 * `PUT /balance/alert`). The debit before it holds the account row's lock, so
 * of concurrent debits that cross, exactly one changes the row.
 */
const DISARM = 'UPDATE account SET low_balance_armed = 0 WHERE id = ? AND low_balance_armed = 1 AND balance < low_balance_threshold';

/** `balance.low` (SPEC-2 §1.6): once per crossing from at or above the threshold to below it. */
@Injectable()
export class LowBalanceAlerts {
  private readonly watched = new TtlCache<boolean>(THRESHOLD_CACHE_MS, CAPACITY);

  constructor(private readonly webhooks: WebhookEvents) {
    webhooks.describe(BalanceWebhookEventDto, BalanceEventDataDto);
  }

  /** In the debit's unit of work, after it: emits `balance.low` when this debit took the balance below the threshold. */
  async afterDebit(sql: Sql, accountId: string, at: Date): Promise<void> {
    if (!(await this.watches(sql, accountId))) return;
    if ((await sql.run(DISARM, [accountId])) === 0) return;
    const row = await sql.get<{ balance: number | string; currency: string; low_balance_threshold: number | string }>(
      'SELECT balance, currency, low_balance_threshold FROM account WHERE id = ?',
      [accountId],
    );
    const data: BalanceEventDataDto = {
      balance: toAmount(Number(row!.balance)),
      currency: row!.currency,
      low_balance_threshold: toAmount(Number(row!.low_balance_threshold)),
      updated_at: at.toISOString(),
    };
    await this.webhooks.emit(sql, { accountId, type: 'balance.low', data, at });
  }

  /** The account's threshold was set or removed through this instance: its debits here see it at once. */
  thresholdSet(accountId: string, watched: boolean): void {
    this.watched.set(accountId, watched, Date.now());
  }

  private async watches(sql: Sql, accountId: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.watched.get(accountId, now);
    if (cached !== undefined) return cached;
    const row = await sql.get<{ threshold: number | string | null }>('SELECT low_balance_threshold AS threshold FROM account WHERE id = ?', [accountId]);
    const watched = row !== undefined && row.threshold !== null;
    this.watched.set(accountId, watched, now);
    return watched;
  }
}
