import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { GroupMember } from './entities/group-member.entity.js';
import { Group } from './entities/group.entity.js';

@Injectable()
export class GroupRepository {
  async findForAccount(sql: Sql, accountId: string, groupId: string): Promise<Group | null> {
    return (await sql.orm()).findOne(Group, { where: { id: groupId, accountId } });
  }

  /** Deletes the group and its memberships, never the contacts; false when the account has no such group. */
  async deleteForAccount(sql: Sql, accountId: string, groupId: string): Promise<boolean> {
    const group = await sql.get('SELECT id FROM contact_group WHERE id = ? AND account_id = ?' + sql.forUpdate, [
      groupId,
      accountId,
    ]);
    if (!group) return false;
    await sql.run('DELETE FROM contact_group_member WHERE group_id = ?', [groupId]);
    return (await sql.run('DELETE FROM contact_group WHERE id = ? AND account_id = ?', [groupId, accountId])) === 1;
  }

  async insert(sql: Sql, group: Group): Promise<void> {
    await (await sql.orm()).insert(Group, group);
  }

  async addMember(sql: Sql, member: GroupMember): Promise<void> {
    await (await sql.orm()).insert(GroupMember, member);
  }
}
