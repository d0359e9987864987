import { Injectable } from '@nestjs/common';
import { generateOperatorKey } from '../auth/api-key.js';
import { OperatorKeyRepository } from '../auth/operator-key.repository.js';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { Database } from '../database/database.js';
import { AdminError } from './admin-error.js';

const NAME_LENGTH = 100;

/** The platform operator's keys for `/v1/admin`: made and revoked at the server's shell only. */
@Injectable()
export class OperatorKeyService {
  constructor(
    private readonly database: Database,
    private readonly keys: OperatorKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** A new key, named for whoever holds it; the key itself is printed once and only its hash kept. */
  async create(name: string) {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > NAME_LENGTH) throw new AdminError(`name must have 1 to ${NAME_LENGTH} characters`);
    const id = newId();
    const key = generateOperatorKey();
    await this.database.transaction((sql) => this.keys.insert(sql, { id, name: trimmed, keyHash: key.hash, prefix: key.prefix, createdAt: this.clock.now() }));
    return { key_id: id, operator_key: key.key };
  }

  async revoke(keyId: string) {
    const revoked = await this.database.transaction((sql) => this.keys.revoke(sql, keyId, this.clock.now()));
    if (!revoked) throw new AdminError(`no active operator key ${keyId}`);
    return { key_id: keyId, revoked: true as const };
  }
}
