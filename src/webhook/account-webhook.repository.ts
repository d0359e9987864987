import { Injectable } from '@nestjs/common';
import { placeholders, readTime, type Sql } from '../database/sql.js';

export interface AccountWebhook {
  accountId: string;
  url: string | null;
  events: string[];
  /** Sealed secrets: the current one, and the one it replaced while that still signs. */
  secret: string | null;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
}

interface WebhookRow {
  account_id: string;
  url: string | null;
  events: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: string | Date | null;
  failing_since: string | Date | null;
  disabled_at: string | Date | null;
}

const SELECT = `SELECT account_id, url, events, secret, previous_secret, previous_secret_until, failing_since, disabled_at FROM account_webhook`;

/** Event types are kept between commas, so that a subscription is a `LIKE '%,type,%'` in the emitting insert. */
const storedEvents = (events: readonly string[]): string => (events.length === 0 ? '' : `,${events.join(',')},`);

/** The account webhook `w` can be sent events: it has a URL and is not disabled. */
export const WEBHOOK_ACTIVE = 'w.url IS NOT NULL AND w.disabled_at IS NULL';

/** Joins the account's webhook `w` where it can be sent events; `w.events` is null otherwise. */
export const activeWebhookJoin = (accountIdColumn: string): string =>
  `LEFT JOIN account_webhook w ON w.account_id = ${accountIdColumn} AND ${WEBHOOK_ACTIVE}`;

/** Whether `w.events`, as stored, subscribes to the type. */
export const subscribes = (storedEvents: string | null, type: string): boolean => storedEvents?.includes(`,${type},`) === true;

/** The account's default webhook: its URL, subscribed events, signing secrets and failure state. */
@Injectable()
export class AccountWebhookRepository {
  async find(sql: Sql, accountId: string, lock = false): Promise<AccountWebhook | null> {
    const row = await sql.get<WebhookRow>(`${SELECT} WHERE account_id = ?${lock ? sql.forUpdate : ''}`, [accountId]);
    return row ? toWebhook(row) : null;
  }

  async findMany(sql: Sql, accountIds: string[]): Promise<AccountWebhook[]> {
    if (accountIds.length === 0) return [];
    const rows = await sql.all<WebhookRow>(`${SELECT} WHERE account_id IN (${placeholders(accountIds)})`, accountIds);
    return rows.map(toWebhook);
  }

  /** Sets the URL and events; a PUT also re-enables a disabled webhook. */
  async save(sql: Sql, accountId: string, url: string | null, events: readonly string[], at: Date): Promise<void> {
    const changed = await sql.run(
      'UPDATE account_webhook SET url = ?, events = ?, failing_since = NULL, disabled_at = NULL, updated_at = ? WHERE account_id = ?',
      [url, storedEvents(events), at, accountId],
    );
    if (changed === 0) await sql.insert('account_webhook', { account_id: accountId, url, events: storedEvents(events), updated_at: at });
  }

  /** Creates the row holding only a secret (the account signs its messages' own URLs before it sets a webhook). */
  async insertSecret(sql: Sql, accountId: string, sealedSecret: string, at: Date): Promise<void> {
    await sql.insert('account_webhook', { account_id: accountId, url: null, events: '', secret: sealedSecret, updated_at: at });
  }

  /** The new secret signs from now on; the one it replaces goes on signing until `previousUntil`. */
  async rotateSecret(sql: Sql, accountId: string, sealedSecret: string, previousUntil: Date, at: Date): Promise<void> {
    await sql.run(
      `UPDATE account_webhook SET previous_secret = secret, previous_secret_until = CASE WHEN secret IS NULL THEN NULL ELSE ? END,
         secret = ?, updated_at = ? WHERE account_id = ?`,
      [previousUntil, sealedSecret, at, accountId],
    );
  }

  /** After a 2xx from the account's URL. */
  async succeeded(sql: Sql, accountId: string): Promise<void> {
    await sql.later('UPDATE account_webhook SET failing_since = NULL WHERE account_id = ? AND failing_since IS NOT NULL', [accountId]);
  }

  /** After a failed attempt at the account's URL: disabled once it has failed every attempt since `disableBefore`. */
  async failed(sql: Sql, accountId: string, at: Date, disableBefore: Date): Promise<void> {
    await sql.later(
      `UPDATE account_webhook SET disabled_at = CASE WHEN failing_since IS NOT NULL AND failing_since <= ? THEN ? ELSE disabled_at END,
         failing_since = COALESCE(failing_since, ?) WHERE account_id = ? AND disabled_at IS NULL`,
      [disableBefore, at, at, accountId],
    );
  }
}

function toWebhook(row: WebhookRow): AccountWebhook {
  return {
    accountId: row.account_id,
    url: row.url,
    events: row.events.split(',').filter((type) => type !== ''),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: readTime(row.previous_secret_until),
    failingSince: readTime(row.failing_since),
    disabledAt: readTime(row.disabled_at),
  };
}
