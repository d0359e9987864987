import { Injectable } from '@nestjs/common';
import { TtlCache } from '../common/ttl-cache.js';
import type { Sql } from '../database/sql.js';
import { senderKey } from './sender-name.js';
import { SenderRepository, type SenderRef } from './sender.repository.js';

/** A new or changed sender is seen by sends within this long. */
const SENDER_CACHE_MS = 5_000;
const CAPACITY = 10_000;

/** The senders a send may use, looked up once every few seconds per account rather than on every send (a removed one may linger 5 s). */
@Injectable()
export class SenderDirectory {
  private readonly cache = new TtlCache<SenderRef>(SENDER_CACHE_MS, CAPACITY);

  constructor(private readonly senders: SenderRepository) {}

  /** The named sender (matched without case), or the account's default one when no name is given. */
  async resolve(sql: Sql, accountId: string, name: string | undefined): Promise<SenderRef | null> {
    const key = `${accountId}|${name === undefined ? '' : `=${senderKey(name)}`}`;
    const now = Date.now();
    const cached = this.cache.get(key, now);
    if (cached !== undefined) return cached;
    const found = name === undefined ? await this.senders.findDefault(sql, accountId) : await this.senders.findByName(sql, accountId, name);
    // an unknown or unapproved sender is not remembered: registered or approved a moment later, it must work at once
    if (!found || found.status !== 'approved') return found ?? null;
    this.cache.set(key, found, now);
    return found;
  }
}
