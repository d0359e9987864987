import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Database } from '../database/database.js';
import type { GroupDto } from './dto/group.dto.js';
import type { Group } from './entities/group.entity.js';
import { GroupRepository } from './group.repository.js';

export const GROUP_NOT_FOUND = 'Groupe non trouvé';

@Injectable()
export class GroupService {
  constructor(
    private readonly database: Database,
    private readonly groups: GroupRepository,
  ) {}

  async findOne(accountId: string, groupId: string): Promise<GroupDto> {
    const group = isUuid(groupId) ? await this.database.run((sql) => this.groups.findForAccount(sql, accountId, groupId)) : null;
    if (!group) throw ApiError.notFound(GROUP_NOT_FOUND);
    return toGroupDto(group);
  }

  async delete(accountId: string, groupId: string): Promise<void> {
    const deleted = isUuid(groupId) && (await this.database.transaction((sql) => this.groups.deleteForAccount(sql, accountId, groupId)));
    if (!deleted) throw ApiError.notFound(GROUP_NOT_FOUND);
  }
}

const toGroupDto = (group: Group): GroupDto => ({
  id: group.id,
  company_id: group.accountId,
  name: group.name,
  description: group.description,
  created_by: group.createdBy,
  created_at: group.createdAt.toISOString(),
});
