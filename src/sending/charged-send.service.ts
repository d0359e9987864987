import { Injectable } from '@nestjs/common';
import { isOverdraft, LedgerRepository, type LedgerReference } from '../billing/ledger.repository.js';
import { ApiError } from '../common/errors/api-error.js';
import { toAmount } from '../common/money.js';
import { Database, type UnitOptions } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';

/** What a charged unit of work wrote and what it costs; the answer is kept for the request's Idempotency-Key. */
export type Charge<T> = {
  /** Hundredths debited, last; 0 debits nothing (a sandbox key). */
  cost: number;
  /** What the ledger row says the debit is for. */
  for: LedgerReference;
  at: Date;
  /** Once the unit is committed: wakes whatever hands its work over. */
  committed?: () => void;
} & ({ answer: T } | { answerWithBalance: (balance: number) => T });

/** The unit of work of one send: writes the feature's rows in `sql` and says what they cost. Run again from the start if the database retries it. */
export type ChargedUnit<T> = (sql: Sql) => Promise<Charge<T>>;

/**
 * The one way a send is charged, whatever it sends (an OTP, SMS, a campaign,
 * lookups): once per Idempotency-Key, the send's checks that need no
 * transaction (`prepare`: a schedule, a DNS lookup), then one transaction in
 * which the feature writes its rows and, last, the debit, so that the account
 * row (which every send of the account waits for) is locked as briefly as
 * possible. The database refuses a negative balance: an overdraft fails the
 * whole unit, answered `402` with the cost and the balance as it is, and
 * leaves nothing behind. Whatever hands the work over is woken after the commit.
 * An answer that shows the balance reads it after the debit: with the commit
 * (one round trip on MySQL), unless an Idempotency-Key keeps the answer, which
 * must then be written before it.
 */
@Injectable()
export class ChargedSend {
  constructor(
    private readonly database: Database,
    private readonly ledger: LedgerRepository,
    private readonly idempotency: Idempotency,
  ) {}

  run<T>(
    accountId: string,
    idempotency: IdempotentRequest | undefined,
    prepare: () => ChargedUnit<T> | Promise<ChargedUnit<T>>,
    options: UnitOptions = {},
  ): Promise<T> {
    return this.idempotency.once(accountId, idempotency, async (scope) => {
      const unit = await prepare();
      let charge: Charge<T> | undefined;
      let answer: () => T;
      try {
        answer = await this.database.transaction(async (sql) => {
          const charged = (charge = await unit(sql));
          if ('answer' in charged) {
            await scope?.recordSuccess(sql, charged.answer);
            await this.ledger.debit(sql, accountId, charged.cost, charged.for, charged.at);
            return () => charged.answer;
          }
          await this.ledger.debit(sql, accountId, charged.cost, charged.for, charged.at);
          if (!scope) {
            const balance = await this.ledger.balanceAtCommit(sql, accountId);
            return () => charged.answerWithBalance(balance());
          }
          const withBalance = charged.answerWithBalance((await this.ledger.balanceOf(sql, accountId)) ?? 0);
          await scope.recordSuccess(sql, withBalance);
          return () => withBalance;
        }, options);
      } catch (error) {
        if (!isOverdraft(error)) throw error;
        throw await this.insufficientBalance(accountId, charge?.cost ?? 0);
      }
      charge!.committed?.();
      return answer();
    });
  }

  private async insufficientBalance(accountId: string, cost: number): Promise<ApiError> {
    const balance = (await this.database.run((sql) => this.ledger.balanceOf(sql, accountId))) ?? 0;
    return ApiError.insufficientBalance(toAmount(cost), toAmount(balance));
  }
}
