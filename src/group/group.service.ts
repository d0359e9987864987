import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid, newId } from '../common/ids.js';
import type { ListPage } from '../common/list/page.js';
import { createdRange, Page } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import type { GroupDto } from './dto/group.dto.js';
import type { CreateGroupDto, GroupQueryDto, UpdateGroupDto } from './dto/group-input.dto.js';
import { groupNameKey } from './group-name.js';
import { GroupRepository, type GroupRecord } from './group.repository.js';

export const GROUP_NOT_FOUND = 'Groupe non trouvé';

@Injectable()
export class GroupService {
  constructor(
    private readonly database: Database,
    private readonly groups: GroupRepository,
    private readonly clock: Clock,
  ) {}

  /** A new group; 409 when the account has one of that name, case ignored. */
  async create(principal: Principal, dto: CreateGroupDto): Promise<GroupDto> {
    const name = requiredName(dto.name);
    const at = this.clock.now();
    const id = newId(at);
    await this.database.transaction(async (sql) => {
      const group = { id, accountId: principal.accountId, name, description: dto.description ?? null, createdBy: principal.userId, at };
      await this.refuseTakenName(() => this.groups.insert(sql, group), sql, principal.accountId, name);
    });
    return this.findOne(principal.accountId, id);
  }

  async findOne(accountId: string, groupId: string): Promise<GroupDto> {
    const group = isUuid(groupId) ? await this.database.run((sql) => this.groups.find(sql, accountId, groupId)) : null;
    if (!group) throw ApiError.notFound(GROUP_NOT_FOUND);
    return toGroupDto(group);
  }

  list(accountId: string, query: GroupQueryDto): Promise<ListPage<GroupDto>> {
    const namePrefix = query.q === undefined ? undefined : groupNameKey(query.q);
    const page = Page.of(query, { q: namePrefix, from: query.created_from, to: query.created_to });
    const range = createdRange('id', dateOf(query.created_from), dateOf(query.created_to));
    return this.database.run(async (sql) => page.answer(await this.groups.list(sql, accountId, namePrefix, range, page), (group) => group.id, toGroupDto));
  }

  async update(accountId: string, groupId: string, dto: UpdateGroupDto): Promise<GroupDto> {
    const name = dto.name === undefined ? undefined : requiredName(dto.name);
    const updated =
      isUuid(groupId) &&
      (await this.database.transaction((sql) =>
        this.refuseTakenName(
          () => this.groups.update(sql, accountId, groupId, { name, description: dto.description === undefined ? undefined : dto.description }, this.clock.now()),
          sql,
          accountId,
          name,
          groupId,
        ),
      ));
    if (!updated) throw ApiError.notFound(GROUP_NOT_FOUND);
    return this.findOne(accountId, groupId);
  }

  async delete(accountId: string, groupId: string): Promise<void> {
    const deleted = isUuid(groupId) && (await this.database.transaction((sql) => this.groups.delete(sql, accountId, groupId)));
    if (!deleted) throw ApiError.notFound(GROUP_NOT_FOUND);
  }

  /** Runs a write that may take a name: 409 `deja_existant` naming the group that has it. */
  private async refuseTakenName<T>(write: () => Promise<T>, sql: Sql, accountId: string, name: string | undefined, self?: string): Promise<T> {
    if (name !== undefined) {
      const holder = await this.groups.idByName(sql, accountId, name);
      if (holder !== undefined && holder !== self) throw nameTaken(holder);
    }
    try {
      return await write();
    } catch (error) {
      if (name !== undefined && isUniqueViolation(error)) throw nameTaken((await this.database.run((fresh) => this.groups.idByName(fresh, accountId, name))) ?? '?');
      throw error;
    }
  }
}

const nameTaken = (holder: string): ApiError => ApiError.conflict('deja_existant', [`name: un groupe porte déjà ce nom (id ${holder})`]);

function requiredName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw ApiError.invalidField('name', 'ne doit pas être vide');
  return trimmed;
}

const dateOf = (text: string | undefined): Date | undefined => (text === undefined ? undefined : new Date(text));

export const toGroupDto = (group: GroupRecord): GroupDto => ({
  id: group.id,
  company_id: group.accountId,
  name: group.name,
  description: group.description,
  contact_count: group.contactCount,
  created_by: group.createdBy,
  created_at: group.createdAt.toISOString(),
  updated_at: group.updatedAt.toISOString(),
});
