import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import type { Sql } from '../database/sql.js';
import { User } from './entities/user.entity.js';

@Injectable()
export class UserRepository {
  async findActive(sql: Sql, userId: string): Promise<Pick<User, 'id' | 'accountId'> | null> {
    const row = await sql.get<{ id: string; account_id: string }>(
      'SELECT id, account_id FROM user WHERE id = ? AND deleted_at IS NULL',
      [userId],
    );
    return row ? { id: row.id, accountId: row.account_id } : null;
  }

  async insert(sql: Sql, user: Pick<User, 'id' | 'accountId' | 'name' | 'email' | 'createdAt'>): Promise<void> {
    await (await sql.orm()).insert(User, { ...user, deletedAt: null });
  }

  /** Soft-deletes a user so that its past messages keep their author; false when none was active. */
  async markDeleted(sql: Sql, userId: string, at: Date): Promise<boolean> {
    const result = await (await sql.orm()).update(User, { id: userId, deletedAt: IsNull() }, { deletedAt: at });
    return result.affected === 1;
  }
}
