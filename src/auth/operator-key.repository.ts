import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

export interface NewOperatorKey {
  id: string;
  name: string;
  keyHash: string;
  prefix: string;
  createdAt: Date;
}

/** Operator keys: the platform operator's credentials for `/v1/admin`, stored only as the SHA-256 of the key. */
@Injectable()
export class OperatorKeyRepository {
  async findActiveByHash(sql: Sql, keyHash: string): Promise<{ id: string } | undefined> {
    return sql.get<{ id: string }>('SELECT id FROM operator_key WHERE key_hash = ? AND revoked_at IS NULL', [keyHash]);
  }

  async insert(sql: Sql, key: NewOperatorKey): Promise<void> {
    await sql.run('INSERT INTO operator_key (id, name, key_hash, prefix, revoked_at, created_at) VALUES (?, ?, ?, ?, NULL, ?)', [
      key.id,
      key.name,
      key.keyHash,
      key.prefix,
      key.createdAt,
    ]);
  }

  /** Marks a key revoked; false when no such unrevoked key exists. */
  async revoke(sql: Sql, keyId: string, at: Date): Promise<boolean> {
    return (await sql.run('UPDATE operator_key SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, keyId])) === 1;
  }
}
