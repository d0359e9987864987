import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { prefixRange } from '../common/list/prefix-range.js';
import { placeholders, readTime, type Param, type Sql } from '../database/sql.js';
import { groupNameKey } from './group-name.js';

/** A group as the address book keeps it. */
export interface GroupRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  contactCount: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface GroupRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  contact_count: number | string;
  created_by: string | null;
  created_at: string | Date;
  updated_at: string | Date | null;
}

const SELECT = 'SELECT id, account_id, name, description, contact_count, created_by, created_at, updated_at FROM contact_group';

@Injectable()
export class GroupRepository {
  async find(sql: Sql, accountId: string, groupId: string): Promise<GroupRecord | null> {
    const row = await sql.get<GroupRow>(`${SELECT} WHERE id = ? AND account_id = ?`, [groupId, accountId]);
    return row ? toRecord(row) : null;
  }

  /** The ids among `groupIds` that are groups of the account. */
  async existing(sql: Sql, accountId: string, groupIds: readonly string[]): Promise<Set<string>> {
    if (groupIds.length === 0) return new Set();
    const rows = await sql.all<{ id: string }>(`SELECT id FROM contact_group WHERE account_id = ? AND id IN (${placeholders(groupIds)})`, [
      accountId,
      ...groupIds,
    ]);
    return new Set(rows.map((row) => row.id));
  }

  /** The id of the account's group with this name (case ignored), if any. */
  async idByName(sql: Sql, accountId: string, name: string): Promise<string | undefined> {
    return (await sql.get<{ id: string }>('SELECT id FROM contact_group WHERE account_id = ? AND name_key = ?', [accountId, groupNameKey(name)]))?.id;
  }

  /** Inserts a group; throws a unique violation when the account has a group of that name. */
  async insert(sql: Sql, group: { id: string; accountId: string; name: string; description: string | null; createdBy: string | null; at: Date }): Promise<void> {
    await sql.run(
      'INSERT INTO contact_group (id, account_id, name, name_key, description, contact_count, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)',
      [group.id, group.accountId, group.name, groupNameKey(group.name), group.description, group.createdBy, group.at, group.at],
    );
  }

  /** Renames or redescribes a group; false when the account has no such group. Throws a unique violation for a name taken. */
  async update(sql: Sql, accountId: string, groupId: string, changes: { name?: string; description?: string | null }, at: Date): Promise<boolean> {
    const sets: string[] = ['updated_at = ?'];
    const params: Param[] = [at];
    if (changes.name !== undefined) {
      sets.push('name = ?', 'name_key = ?');
      params.push(changes.name, groupNameKey(changes.name));
    }
    if (changes.description !== undefined) {
      sets.push('description = ?');
      params.push(changes.description);
    }
    return (await sql.run(`UPDATE contact_group SET ${sets.join(', ')} WHERE id = ? AND account_id = ?`, [...params, groupId, accountId])) === 1;
  }

  /** Deletes the group and its memberships, never the contacts; false when the account has no such group. */
  async delete(sql: Sql, accountId: string, groupId: string): Promise<boolean> {
    const group = await sql.get(`SELECT id FROM contact_group WHERE id = ? AND account_id = ?${sql.forUpdate}`, [groupId, accountId]);
    if (!group) return false;
    await sql.run('DELETE FROM contact_group_member WHERE group_id = ?', [groupId]);
    return (await sql.run('DELETE FROM contact_group WHERE id = ? AND account_id = ?', [groupId, accountId])) === 1;
  }

  /** A page of the account's groups, newest first; `namePrefix` (a name key) searches by the start of the name. */
  async list(sql: Sql, accountId: string, namePrefix: string | undefined, idRange: { conditions: string[]; params: string[] }, page: Page): Promise<GroupRecord[]> {
    const conditions = ['account_id = ?', ...idRange.conditions];
    const params: Param[] = [accountId, ...idRange.params];
    if (namePrefix !== undefined) {
      const range = prefixRange('name_key', namePrefix);
      conditions.push(range.condition);
      params.push(...range.params);
    }
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<GroupRow>(text, values)).map(toRecord);
  }

  /** Makes the contacts members of the group (those already members stay as they are); returns how many joined. */
  async addMembers(sql: Sql, groupId: string, contactIds: readonly string[], at: Date): Promise<number> {
    let added = 0;
    for (let start = 0; start < contactIds.length; start += 300) {
      const chunk = contactIds.slice(start, start + 300);
      added += await sql.run(
        `${sql.insertIgnore} INTO contact_group_member (group_id, contact_id, created_at) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
        chunk.flatMap((contactId) => [groupId, contactId, at]),
      );
    }
    if (added > 0) await sql.run('UPDATE contact_group SET contact_count = contact_count + ? WHERE id = ?', [added, groupId]);
    return added;
  }

  /** Ends the memberships of these contacts in the group; returns how many ended. */
  async removeMembers(sql: Sql, groupId: string, contactIds: readonly string[]): Promise<number> {
    if (contactIds.length === 0) return 0;
    const removed = await sql.run(`DELETE FROM contact_group_member WHERE group_id = ? AND contact_id IN (${placeholders(contactIds)})`, [
      groupId,
      ...contactIds,
    ]);
    if (removed > 0) await sql.run('UPDATE contact_group SET contact_count = contact_count - ? WHERE id = ?', [removed, groupId]);
    return removed;
  }

  /** The groups the contact belongs to. */
  async groupsOf(sql: Sql, contactId: string): Promise<string[]> {
    const rows = await sql.all<{ group_id: string }>('SELECT group_id FROM contact_group_member WHERE contact_id = ? ORDER BY group_id', [contactId]);
    return rows.map((row) => row.group_id);
  }

  /** Ends every membership of the contact (it is being deleted), keeping the groups' counts exact. */
  async endMembershipsOf(sql: Sql, contactId: string): Promise<void> {
    const groupIds = await this.groupsOf(sql, contactId);
    if (groupIds.length === 0) return;
    // by key: MariaDB would read the whole group table for `id IN (SELECT …)` in an UPDATE
    await sql.run(`UPDATE contact_group SET contact_count = contact_count - 1 WHERE id IN (${placeholders(groupIds)})`, groupIds);
    await sql.run('DELETE FROM contact_group_member WHERE contact_id = ?', [contactId]);
  }

  /** Locks the group row for the unit (MySQL): membership changes of one group are serialised, and its count stays exact. */
  async lock(sql: Sql, accountId: string, groupId: string): Promise<boolean> {
    return (await sql.get(`SELECT id FROM contact_group WHERE id = ? AND account_id = ?${sql.forUpdate}`, [groupId, accountId])) !== undefined;
  }
}

function toRecord(row: GroupRow): GroupRecord {
  const createdAt = readTime(row.created_at);
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    contactCount: Number(row.contact_count),
    createdBy: row.created_by,
    createdAt,
    updatedAt: readTime(row.updated_at) ?? createdAt,
  };
}
