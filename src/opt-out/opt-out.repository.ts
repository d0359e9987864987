import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import type { Page } from '../common/list/page.js';
import { placeholders, readTime, type Param, type Sql } from '../database/sql.js';

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

/** An entry of the list as it is shown. */
export interface OptOutRecord {
  id: string;
  phone: string;
  source: OptOutSource;
  keyword: string | null;
  senderId: string | null;
  createdBy: string | null;
  createdAt: Date;
}

/** The list filters, normalised: `idRange` is the creation range as a range of keys. */
export interface OptOutFilters {
  source?: OptOutSource;
  idRange: { conditions: string[]; params: string[] };
}

/** Entries that only their recipient can undo (START): the API and the operator cannot override a STOP. */
const RECIPIENT_ONLY_SOURCES: readonly OptOutSource[] = ['sms_keyword', 'link'];
const REMOVABLE = OPT_OUT_SOURCES.filter((source) => !RECIPIENT_ONLY_SOURCES.includes(source));

/** A change the recipient made (START by SMS): it may undo any entry. */
export const isRecipientSource = (source: OptOutSource): boolean => RECIPIENT_ONLY_SOURCES.includes(source);

interface OptOutRow {
  id: string;
  phone: string;
  source: OptOutSource;
  keyword: string | null;
  sender_id: string | null;
  created_by: string | null;
  created_at: string | Date;
}

const SELECT = 'SELECT id, phone, source, keyword, sender_id, created_by, created_at FROM opt_out';

const CHUNK = 200;

/** The account's opt-out list: numbers never sent ordinary SMS again, kept when contacts are deleted. */
@Injectable()
export class OptOutRepository {
  /** Puts the numbers on the list; returns those that were not on it. */
  async addMany(sql: Sql, phones: readonly string[], entry: NewOptOuts): Promise<string[]> {
    const unique = [...new Set(phones)];
    const already = await this.listed(sql, entry.accountId, entry.sandbox, unique);
    const fresh = unique.filter((phone) => !already.has(phone)).map((phone) => ({ id: newId(entry.at), phone }));
    const added: string[] = [];
    for (let start = 0; start < fresh.length; start += CHUNK) {
      const chunk = fresh.slice(start, start + CHUNK);
      await sql.run(
        `${sql.insertIgnore} INTO opt_out (id, account_id, sandbox, phone, source, keyword, sender_id, created_by, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
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
      const rows = await sql.all<{ phone: string }>(...listedQuery(accountId, sandbox, phones.slice(start, start + CHUNK)));
      for (const row of rows) found.add(row.phone);
    }
    return found;
  }

  /** A page of the list of the account's mode, newest first. */
  async list(sql: Sql, accountId: string, sandbox: boolean, filters: OptOutFilters, page: Page): Promise<OptOutRecord[]> {
    const conditions = ['account_id = ?', 'sandbox = ?'];
    const params: Param[] = [accountId, sandbox];
    if (filters.source !== undefined) {
      conditions.push('source = ?');
      params.push(filters.source);
    }
    conditions.push(...filters.idRange.conditions);
    params.push(...filters.idRange.params);
    const [text, values] = page.query(SELECT, 'id', conditions, params);
    return (await sql.all<OptOutRow>(text, values)).map(toRecord);
  }

  /**
   * Takes the number off the list of the account's mode when its entry is one
   * the account may undo, or any entry when the recipient asks; otherwise says
   * why not: the source of an entry only its recipient can undo, or null when
   * the number is not listed.
   */
  async remove(
    sql: Sql,
    accountId: string,
    sandbox: boolean,
    phone: string,
    byRecipient = false,
  ): Promise<{ removed: true } | { removed: false; source: OptOutSource | null }> {
    const sources = byRecipient ? OPT_OUT_SOURCES : REMOVABLE;
    const removed = await sql.run(`DELETE FROM opt_out WHERE account_id = ? AND sandbox = ? AND phone = ? AND source IN (${placeholders(sources)})`, [
      accountId,
      sandbox,
      phone,
      ...sources,
    ]);
    if (removed > 0) return { removed: true };
    const kept = await sql.get<{ source: OptOutSource }>('SELECT source FROM opt_out WHERE account_id = ? AND sandbox = ? AND phone = ?', [accountId, sandbox, phone]);
    return { removed: false, source: kept?.source ?? null };
  }

  /** The account's contacts among these numbers, by number (what opt-out events name as `contact_id`). */
  async contactsOf(sql: Sql, accountId: string, phones: readonly string[]): Promise<Map<string, string>> {
    const contacts = new Map<string, string>();
    for (let start = 0; start < phones.length; start += CHUNK) {
      const chunk = phones.slice(start, start + CHUNK);
      const rows = await sql.all<{ id: string; phone: string }>(`SELECT id, phone FROM contact WHERE account_id = ? AND phone IN (${placeholders(chunk)})`, [
        accountId,
        ...chunk,
      ]);
      for (const row of rows) contacts.set(row.phone, row.id);
    }
    return contacts;
  }
}

const toRecord = (row: OptOutRow): OptOutRecord => ({
  id: row.id,
  phone: row.phone,
  source: row.source,
  keyword: row.keyword,
  senderId: row.sender_id,
  createdBy: row.created_by,
  createdAt: readTime(row.created_at),
});

/** The query that finds which of `phones` (a few hundred at most) are on the list of the account's mode. */
export function listedQuery(accountId: string, sandbox: boolean, phones: readonly string[]): [query: string, params: Param[]] {
  return [`SELECT phone FROM opt_out WHERE account_id = ? AND sandbox = ? AND phone IN (${placeholders(phones)})`, [accountId, sandbox, ...phones]];
}
