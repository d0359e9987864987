import { Injectable } from '@nestjs/common';
import { isUuid } from '../common/ids.js';
import type { Page } from '../common/list/page.js';
import { readTime, type Param, type Sql } from '../database/sql.js';
import { Account } from './entities/account.entity.js';

/** An account as the operator lists it. */
export interface AccountSummary {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  /** Hundredths. */
  balance: number;
  currency: string;
  createdBy: string | null;
  createdAt: Date;
}

interface AccountSummaryRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  balance: number | string;
  currency: string;
  created_by: string | null;
  created_at: string | Date;
}

const SELECT_SUMMARY = 'SELECT id, name, email, phone, balance, currency, created_by, created_at FROM account';

/** `%` and `_` in a searched text are themselves, not wildcards (escaped with `!`, which both databases read alike). */
const likePrefix = (text: string): string => `${text.toLowerCase().replace(/[!%_]/g, (character) => `!${character}`)}%`;

@Injectable()
export class AccountRepository {
  async findById(sql: Sql, accountId: string): Promise<Account | null> {
    const row = await sql.get<{
      id: string;
      name: string;
      email: string | null;
      phone: string | null;
      balance: number | string;
      address: string | null;
      logo_url: string | null;
      country_id: number | null;
      created_by: string | null;
      created_at: string | Date;
    }>('SELECT id, name, email, phone, balance, address, logo_url, country_id, created_by, created_at FROM account WHERE id = ?', [accountId]);
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      balance: Number(row.balance),
      address: row.address,
      logoUrl: row.logo_url,
      countryId: row.country_id,
      createdBy: row.created_by,
      createdAt: readTime(row.created_at),
    };
  }

  /**
   * A page of every account, newest first; `q` is the account's id, or the
   * start of its name or e-mail (case ignored). The operator's list is short:
   * the search filters the primary key's walk rather than an index of its own.
   */
  async list(sql: Sql, q: string | undefined, page: Page): Promise<AccountSummary[]> {
    const conditions: string[] = [];
    const params: Param[] = [];
    if (q !== undefined) {
      const matches = ["LOWER(name) LIKE ? ESCAPE '!'", "LOWER(email) LIKE ? ESCAPE '!'"];
      params.push(likePrefix(q), likePrefix(q));
      // an id column is ASCII, which MySQL cannot compare with other text
      if (isUuid(q)) {
        matches.push('id = ?');
        params.push(q);
      }
      conditions.push(`(${matches.join(' OR ')})`);
    }
    const [text, values] = page.query(SELECT_SUMMARY, 'id', conditions, params);
    return (await sql.all<AccountSummaryRow>(text, values)).map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      balance: Number(row.balance),
      currency: row.currency,
      createdBy: row.created_by,
      createdAt: readTime(row.created_at),
    }));
  }

  async exists(sql: Sql, accountId: string): Promise<boolean> {
    return (await sql.get('SELECT 1 AS found FROM account WHERE id = ?', [accountId])) !== undefined;
  }

  async any(sql: Sql): Promise<boolean> {
    return (await sql.get('SELECT 1 AS found FROM account LIMIT 1')) !== undefined;
  }

  async insert(sql: Sql, account: Account): Promise<void> {
    await (await sql.orm()).insert(Account, account);
  }

  async setOwner(sql: Sql, accountId: string, userId: string): Promise<void> {
    await sql.run('UPDATE account SET created_by = ? WHERE id = ?', [userId, accountId]);
  }
}
