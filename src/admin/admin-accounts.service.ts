import { Injectable } from '@nestjs/common';
import { AccountRepository, type AccountSummary } from '../account/account.repository.js';
import { OPERATOR_IDEMPOTENCY_SCOPE } from '../common/principal.js';
import { BalanceRepository } from '../balance/balance.repository.js';
import { toLedgerEntryDto } from '../balance/balance.service.js';
import type { LedgerEntryDto } from '../balance/dto/ledger-entry.dto.js';
import { LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { toAmount, toHundredths } from '../common/money.js';
import { Database } from '../database/database.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import type { AdminAccountDto, AdminAccountQueryDto, CreditAccountDto } from './dto/admin-account.dto.js';

export const ACCOUNT_NOT_FOUND = 'Compte non trouvé';

/** `/v1/admin/accounts`: every account, and credits with the effect of `account:credit`. */
@Injectable()
export class AdminAccountsService {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountRepository,
    private readonly ledger: LedgerRepository,
    private readonly balances: BalanceRepository,
    private readonly idempotency: Idempotency,
    private readonly clock: Clock,
  ) {}

  list(query: AdminAccountQueryDto): Promise<ListPage<AdminAccountDto>> {
    const page = Page.of(query, { q: query.q });
    return this.database.run(async (sql) => page.answer(await this.accounts.list(sql, query.q, page), (account) => account.id, toAdminAccountDto));
  }

  /**
   * A `credit` ledger row and the balance it adds to, in one transaction; its
   * answer, the row, is kept with the Idempotency-Key in that transaction.
   */
  credit(accountId: string, dto: CreditAccountDto, idempotency?: IdempotentRequest): Promise<LedgerEntryDto> {
    return this.idempotency.once(OPERATOR_IDEMPOTENCY_SCOPE, idempotency, (scope) =>
      this.database.transaction(async (sql) => {
        if (!isUuid(accountId) || !(await this.accounts.exists(sql, accountId))) throw ApiError.notFound(ACCOUNT_NOT_FOUND);
        const reference = { type: 'admin' as const, id: null, description: dto.description ?? null };
        await this.ledger.add(sql, accountId, toHundredths(dto.amount)!, 'credit', reference, this.clock.now());
        const answer = toLedgerEntryDto((await this.balances.latest(sql, accountId))!);
        await scope?.recordSuccess(sql, answer);
        return answer;
      }),
    );
  }
}

const toAdminAccountDto = (account: AccountSummary): AdminAccountDto => ({
  id: account.id,
  name: account.name,
  email: account.email,
  phone: account.phone,
  balance: toAmount(account.balance),
  currency: account.currency,
  created_by: account.createdBy,
  created_at: account.createdAt.toISOString(),
});
