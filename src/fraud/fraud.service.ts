import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import type { AttemptQueryDto, FraudAttemptDto } from './dto/fraud-attempt.dto.js';
import type { BlockQueryDto, FraudBlockDto } from './dto/fraud-block.dto.js';
import type { AddListEntryDto, FraudListEntryDto, ListEntryQueryDto } from './dto/fraud-list.dto.js';
import type { FraudPolicyDto, UpdateFraudPolicyDto } from './dto/fraud-policy.dto.js';
import { FraudAttemptRepository } from './fraud-attempt.repository.js';
import { FraudBlockRepository } from './fraud-block.repository.js';
import { FraudListRepository } from './fraud-list.repository.js';
import { readListEntry } from './fraud-list.rules.js';
import { applyChange, type FraudPolicy } from './fraud-policy.js';
import { checkPolicy, readPolicyChange } from './fraud-policy.rules.js';
import { FraudStateCache } from './fraud-state.cache.js';
import { FraudStateRepository, type FraudScope } from './fraud-state.repository.js';
import { toAttemptDto, toBlockDto, toListEntryDto } from './fraud-views.js';

export const ENTRY_NOT_FOUND = 'Entrée non trouvée';
export const BLOCK_NOT_FOUND = 'Blocage non trouvé';
export const BLOCK_NOT_ACTIVE = 'status: blocage déjà levé ou terminé';

/** Whose settings a route reads: an account's in one mode, or, for the operator's lists, those of every account matching it. */
export type ScopeFilter = Partial<FraudScope>;

/**
 * The guard's settings through the API (`/v1/fraud`, and the operator's
 * `/v1/admin/fraud`): the policy, the safe and deny lists, the blocks and
 * their unblocking, and the attempts. Every change bumps the account's
 * settings version in its unit of work and is read again by this instance's
 * cache once committed; the other instances read it within their refresh
 * interval (FraudStateCache).
 */
@Injectable()
export class FraudService {
  constructor(
    private readonly database: Database,
    private readonly states: FraudStateRepository,
    private readonly lists: FraudListRepository,
    private readonly blocks: FraudBlockRepository,
    private readonly attempts: FraudAttemptRepository,
    private readonly cache: FraudStateCache,
    private readonly clock: Clock,
  ) {}

  policy(scope: FraudScope): Promise<FraudPolicyDto> {
    return this.database.run((sql) => this.states.policyOf(sql, scope));
  }

  /** Keys left out keep their values; the whole policy is answered. */
  async updatePolicy(scope: FraudScope, dto: UpdateFraudPolicyDto): Promise<FraudPolicyDto> {
    const change = readPolicyChange(dto);
    return this.changing(scope, async (sql) => {
      await this.states.bump(sql, scope, this.clock.now());
      const policy: FraudPolicy = checkPolicy(applyChange(await this.states.policyOf(sql, scope), change));
      await this.states.savePolicy(sql, scope, policy);
      return policy;
    });
  }

  /** 409 when the same entry is on the list. */
  async addEntry(scope: FraudScope, dto: AddListEntryDto, createdBy: string | null): Promise<FraudListEntryDto> {
    const now = this.clock.now();
    const { value, expiresAt } = readListEntry(dto, now);
    const entry = { id: newId(now), list: dto.list, kind: dto.kind, value, note: dto.note ?? null, expiresAt, createdBy, at: now };
    await this.changing(scope, async (sql) => {
      await this.states.bump(sql, scope, now);
      if (!(await this.lists.add(sql, scope, entry))) throw ApiError.conflict('deja_existant', [`value: ${value} est déjà sur la liste ${dto.list} (${dto.kind})`]);
    });
    return toListEntryDto({ ...entry, ...scope, createdAt: now });
  }

  async removeEntry(scope: FraudScope | undefined, id: string): Promise<void> {
    const now = this.clock.now();
    const entry = await this.database.run((sql) => this.lists.find(sql, id, now, scope));
    if (!entry) throw ApiError.notFound(ENTRY_NOT_FOUND);
    await this.changing(entry, async (sql) => {
      await this.states.bump(sql, entry, now);
      if (!(await this.lists.remove(sql, id))) throw ApiError.notFound(ENTRY_NOT_FOUND);
    });
  }

  listEntries(scope: ScopeFilter, query: ListEntryQueryDto): Promise<ListPage<FraudListEntryDto>> {
    const filters = { scope, list: query.list, kind: query.kind };
    const page = Page.of(query, { owner: scope, list: query.list, kind: query.kind });
    return this.database.run(async (sql) => page.answer(await this.lists.list(sql, filters, this.clock.now(), page), (entry) => entry.id, toListEntryDto));
  }

  listBlocks(scope: ScopeFilter, query: BlockQueryDto): Promise<ListPage<FraudBlockDto>> {
    const now = this.clock.now();
    const active = query.active === undefined ? undefined : query.active === 'true';
    const page = Page.of(query, { owner: scope, scope: query.scope, reason: query.reason, active });
    const filters = { scope, blockScope: query.scope, reason: query.reason, active, now };
    return this.database.run(async (sql) => page.answer(await this.blocks.list(sql, filters, page), (block) => block.id, (block) => toBlockDto(block, now)));
  }

  /** Lifts a block in force (the prefix or country is sent to again at once); 409 when it is lifted or over already. */
  async unblock(scope: FraudScope | undefined, id: string): Promise<void> {
    const now = this.clock.now();
    const block = await this.database.run((sql) => this.blocks.find(sql, id, scope));
    if (!block) throw ApiError.notFound(BLOCK_NOT_FOUND);
    await this.changing(block, async (sql) => {
      await this.states.bump(sql, block, now);
      if (!(await this.blocks.lift(sql, id, now))) throw ApiError.conflict('transition_invalide', [BLOCK_NOT_ACTIVE]);
    });
  }

  listAttempts(scope: ScopeFilter, query: AttemptQueryDto): Promise<ListPage<FraudAttemptDto>> {
    const filters = {
      scope,
      reason: query.reason,
      mode: query.mode,
      country: query.country,
      createdFrom: query.created_from === undefined ? undefined : new Date(query.created_from),
      createdTo: query.created_to === undefined ? undefined : new Date(query.created_to),
    };
    const page = Page.of(query, { owner: scope, reason: query.reason, mode: query.mode, country: query.country, from: query.created_from, to: query.created_to });
    return this.database.run(async (sql) => page.answer(await this.attempts.list(sql, filters, page), (attempt) => attempt.id, toAttemptDto));
  }

  /** A change of `scope`'s settings in one unit of work, then read again by this instance's cache. */
  private async changing<T>(scope: FraudScope, work: (sql: Sql) => Promise<T>): Promise<T> {
    const result = await this.database.transaction(work);
    await this.cache.changed({ accountId: scope.accountId, sandbox: scope.sandbox });
    return result;
  }
}
