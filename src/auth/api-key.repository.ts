import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { readBoolean } from '../database/sql.js';
import { ApiKey } from './entities/api-key.entity.js';

export interface ActiveApiKey {
  keyId: string;
  userId: string;
  accountId: string;
  test: boolean;
}

@Injectable()
export class ApiKeyRepository {
  /** An unrevoked key whose user still exists. */
  async findActiveByHash(sql: Sql, keyHash: string): Promise<ActiveApiKey | null> {
    const row = await sql.get<{ id: string; user_id: string; account_id: string; is_test: unknown }>(
      `SELECT k.id, k.user_id, k.account_id, k.is_test
         FROM api_key k JOIN user u ON u.id = k.user_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL AND u.deleted_at IS NULL`,
      [keyHash],
    );
    return row ? { keyId: row.id, userId: row.user_id, accountId: row.account_id, test: readBoolean(row.is_test) } : null;
  }

  async insert(sql: Sql, key: Pick<ApiKey, 'id' | 'userId' | 'accountId' | 'keyHash' | 'prefix' | 'isTest' | 'createdAt'>) {
    await (await sql.orm()).insert(ApiKey, { ...key, revokedAt: null });
  }

  /** Marks a key revoked; false when no such unrevoked key exists. */
  async revoke(sql: Sql, keyId: string, at: Date): Promise<boolean> {
    return (await sql.run('UPDATE api_key SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, keyId])) === 1;
  }

  async findById(sql: Sql, keyId: string): Promise<ApiKey | null> {
    return (await sql.orm()).findOne(ApiKey, { where: { id: keyId } });
  }
}
