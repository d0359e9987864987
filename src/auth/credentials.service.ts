import { Injectable } from '@nestjs/common';
import { UserRepository } from '../account/user.repository.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { hashApiKey } from './api-key.js';
import type { OperatorPrincipal, Principal } from '../common/principal.js';
import { OperatorKeyRepository } from './operator-key.repository.js';
import { TtlCache } from '../common/ttl-cache.js';

/**
 * Resolves credentials to a principal. Look-ups are cached for at most 5 s,
 * so a revoked key (API or operator key) or a deleted user stops working within 5 s. So are the
 * claims of JWTs that passed every check, by the token's exact text and never
 * past its `exp`: a client repeating its token is not verified again on every
 * request (its user still is looked up, as above).
 */
export const CREDENTIAL_CACHE_MS = 5_000;
const CACHE_CAPACITY = 10_000;

export interface VerifiedToken {
  userId: string;
  accountId: string;
}

@Injectable()
export class CredentialsService {
  private readonly keys = new TtlCache<Principal>(CREDENTIAL_CACHE_MS, CACHE_CAPACITY);
  private readonly operatorKeys = new TtlCache<OperatorPrincipal>(CREDENTIAL_CACHE_MS, CACHE_CAPACITY);
  private readonly users = new TtlCache<string>(CREDENTIAL_CACHE_MS, CACHE_CAPACITY);
  private readonly verifiedTokens = new TtlCache<VerifiedToken>(CREDENTIAL_CACHE_MS, CACHE_CAPACITY);

  constructor(
    private readonly database: Database,
    private readonly apiKeys: ApiKeyRepository,
    private readonly userRepository: UserRepository,
    private readonly operatorKeyRepository: OperatorKeyRepository,
  ) {}

  principalForApiKey(key: string): Promise<Principal | null> {
    return this.byKeyHash(this.keys, key, async (sql, hash) => {
      const found = await this.apiKeys.findActiveByHash(sql, hash);
      return found && { userId: found.userId, accountId: found.accountId, credentialId: `key:${found.keyId}`, test: found.test };
    });
  }

  principalForOperatorKey(key: string): Promise<OperatorPrincipal | null> {
    return this.byKeyHash(this.operatorKeys, key, async (sql, hash) => {
      const found = await this.operatorKeyRepository.findActiveByHash(sql, hash);
      return found ? { operatorKeyId: found.id, credentialId: `operator:${found.id}` } : null;
    });
  }

  /** A key's principal, looked up by the key's hash unless the cache has it. */
  private async byKeyHash<T>(cache: TtlCache<T>, key: string, find: (sql: Sql, hash: string) => Promise<T | null>): Promise<T | null> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const cached = cache.get(hash, now);
    if (cached) return cached;
    const found = await this.database.run((sql) => find(sql, hash), { urgent: true });
    if (found) cache.set(hash, found, now);
    return found;
  }

  /** The principal of a token's user, when that user still exists in the token's account. */
  async principalForUser(userId: string, accountId: string): Promise<Principal | null> {
    const now = Date.now();
    let userAccount = this.users.get(userId, now);
    if (userAccount === undefined) {
      const user = await this.database.run((sql) => this.userRepository.findActive(sql, userId), { urgent: true });
      if (!user) return null;
      userAccount = user.accountId;
      this.users.set(userId, userAccount, now);
    }
    if (userAccount !== accountId) return null;
    return { userId, accountId, credentialId: `user:${userId}`, test: false };
  }

  /** The user and account of a JWT whose signature and claims passed within the last 5 s, until its `exp`. */
  verifiedToken(token: string): VerifiedToken | undefined {
    return this.verifiedTokens.get(token, Date.now());
  }

  /** `expiresAt`: the token's `exp`, in seconds. */
  rememberVerifiedToken(token: string, verified: VerifiedToken, expiresAt: number): void {
    const now = Date.now();
    this.verifiedTokens.set(token, verified, now, expiresAt * 1000 - now);
  }
}
