import { Injectable } from '@nestjs/common';
import { AccountRepository } from '../account/account.repository.js';
import { ACCOUNT_NOT_FOUND } from '../admin/admin-accounts.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import type { ListPage } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { AdminAddListEntryDto, AdminAttemptQueryDto, AdminBlockQueryDto, AdminListEntryQueryDto, AdminModeQueryDto, AdminScopeQueryDto } from './dto/admin-fraud.dto.js';
import type { FraudAttemptDto } from './dto/fraud-attempt.dto.js';
import type { FraudBlockDto } from './dto/fraud-block.dto.js';
import type { FraudListEntryDto } from './dto/fraud-list.dto.js';
import type { FraudPolicyDto, UpdateFraudPolicyDto } from './dto/fraud-policy.dto.js';
import type { FraudScope } from './fraud-state.repository.js';
import { FraudService, type ScopeFilter } from './fraud.service.js';

/**
 * The guard's settings as the operator reads and changes them
 * (`/v1/admin/fraud`): those of any account, in either mode, through the same
 * FraudService as the account's own routes; the lists span every account
 * unless narrowed. An entry the operator lists has no `created_by`.
 */
@Injectable()
export class AdminFraud {
  constructor(
    private readonly fraud: FraudService,
    private readonly database: Database,
    private readonly accounts: AccountRepository,
  ) {}

  async policy(accountId: string, query: AdminModeQueryDto): Promise<FraudPolicyDto> {
    return this.fraud.policy(await this.scopeOf(accountId, query.sandbox === 'true'));
  }

  async updatePolicy(accountId: string, query: AdminModeQueryDto, dto: UpdateFraudPolicyDto): Promise<FraudPolicyDto> {
    return this.fraud.updatePolicy(await this.scopeOf(accountId, query.sandbox === 'true'), dto);
  }

  async addEntry(dto: AdminAddListEntryDto): Promise<FraudListEntryDto> {
    const { account_id: accountId, sandbox, ...entry } = dto;
    return this.fraud.addEntry(await this.scopeOf(accountId, sandbox ?? false), entry, null);
  }

  removeEntry(id: string): Promise<void> {
    return this.fraud.removeEntry(undefined, id);
  }

  listEntries(query: AdminListEntryQueryDto): Promise<ListPage<FraudListEntryDto>> {
    return this.fraud.listEntries(filterOf(query), query);
  }

  listBlocks(query: AdminBlockQueryDto): Promise<ListPage<FraudBlockDto>> {
    return this.fraud.listBlocks(filterOf(query), query);
  }

  unblock(id: string): Promise<void> {
    return this.fraud.unblock(undefined, id);
  }

  listAttempts(query: AdminAttemptQueryDto): Promise<ListPage<FraudAttemptDto>> {
    return this.fraud.listAttempts(filterOf(query), query);
  }

  /** 404 for an account that does not exist. */
  private async scopeOf(accountId: string, sandbox: boolean): Promise<FraudScope> {
    if (!isUuid(accountId) || !(await this.database.run((sql) => this.accounts.exists(sql, accountId)))) throw ApiError.notFound(ACCOUNT_NOT_FOUND);
    return { accountId, sandbox };
  }
}

const filterOf = (query: AdminScopeQueryDto): ScopeFilter => ({
  accountId: query.account_id,
  sandbox: query.sandbox === undefined ? undefined : query.sandbox === 'true',
});
