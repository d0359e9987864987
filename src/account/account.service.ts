import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { toAmount } from '../common/money.js';
import { Database } from '../database/database.js';
import { AccountRepository } from './account.repository.js';
import type { AccountDto } from './dto/account.dto.js';
import type { Account } from './entities/account.entity.js';

@Injectable()
export class AccountService {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountRepository,
  ) {}

  async get(accountId: string): Promise<AccountDto> {
    const account = await this.database.run((sql) => this.accounts.findById(sql, accountId));
    if (!account) throw ApiError.unauthorized();
    return toAccountDto(account);
  }
}

export const toAccountDto = (account: Account): AccountDto => ({
  id: account.id,
  name: account.name,
  balance: toAmount(account.balance),
  address: account.address,
  logo_url: account.logoUrl,
  country_id: account.countryId,
  created_by: account.createdBy,
  created_at: account.createdAt.toISOString(),
});
