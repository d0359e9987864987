import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { placeholders, type Sql } from '../database/sql.js';

/** Where an opt-out came from (SPEC-2 §3). */
export const OPT_OUT_SOURCES = ['sms_keyword', 'api', 'import', 'link', 'admin'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

export interface NewOptOuts {
  accountId: string;
  /** Entries made with a sandbox key apply to sandbox traffic only. */
  sandbox: boolean;
  source: OptOutSource;
  createdBy: string | null;
  at: Date;
  keyword?: string | null;
  senderId?: string | null;
}

const CHUNK = 200;

/** The account's opt-out list: numbers never sent ordinary SMS again, kept when contacts are deleted. */
@Injectable()
export class OptOutRepository {
  /** Puts the numbers on the list; returns those that were not on it. */
  async addMany(sql: Sql, phones: readonly string[], entry: NewOptOuts): Promise<string[]> {
    const unique = [...new Set(phones)];
    const already = await this.listed(sql, entry.accountId, entry.sandbox, unique);
    const fresh = unique.filter((phone) => !already.has(phone)).map((phone) => ({ id: newId(entry.at), phone }));
    const insert = sql.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const added: string[] = [];
    for (let start = 0; start < fresh.length; start += CHUNK) {
      const chunk = fresh.slice(start, start + CHUNK);
      await sql.run(
        `${insert} INTO opt_out (id, account_id, sandbox, phone, source, keyword, sender_id, created_by, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap(({ id, phone }) => [id, entry.accountId, entry.sandbox, phone, entry.source, entry.keyword ?? null, entry.senderId ?? null, entry.createdBy, entry.at]),
      );
      // a number another unit of work listed meanwhile was left to it: only the rows written here count
      const ids = chunk.map((row) => row.id);
      const written = await sql.all<{ phone: string }>(`SELECT phone FROM opt_out WHERE id IN (${placeholders(ids)})`, ids);
      added.push(...written.map((row) => row.phone));
    }
    return added;
  }

  /** The numbers among `phones` on the list of the account's mode. */
  async listed(sql: Sql, accountId: string, sandbox: boolean, phones: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < phones.length; start += CHUNK) {
      const chunk = phones.slice(start, start + CHUNK);
      const rows = await sql.all<{ phone: string }>(`SELECT phone FROM opt_out WHERE account_id = ? AND sandbox = ? AND phone IN (${placeholders(chunk)})`, [
        accountId,
        sandbox,
        ...chunk,
      ]);
      for (const row of rows) found.add(row.phone);
    }
    return found;
  }
}
