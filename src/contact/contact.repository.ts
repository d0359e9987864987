import { Injectable } from '@nestjs/common';
import { createdRange, type Page } from '../common/list/page.js';
import { prefixRange } from '../common/list/prefix-range.js';
import { placeholders, readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import type { Language } from '../common/language.js';
import { contactSearchKey } from './search-key.js';

/** What other records show of a contact. */
export interface ContactRef {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** The columns written from a contact's fields. */
export interface ContactColumns {
  name: string | null;
  email: string | null;
  phone: string;
  country: string | null;
  language: Language;
  attributes: Record<string, string>;
}

/** A contact as the address book keeps it. */
export interface ContactRecord extends ContactColumns {
  id: string;
  accountId: string;
  optedOut: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ContactRow {
  id: string;
  account_id: string;
  name: string | null;
  email: string | null;
  phone: string;
  country: string | null;
  language: Language;
  attributes: string | null;
  opted_out: number | boolean;
  created_by: string | null;
  created_at: string | Date;
  updated_at: string | Date | null;
}

/** The list filters, normalised. */
export interface ContactFilters {
  nameOrEmail?: { name: string; email: string };
  phonePrefix?: string;
  groupId?: string;
  optedOut?: boolean;
  createdFrom?: Date;
  createdTo?: Date;
}

/** `opted_out` is derived from the opt-out list of the calling key's mode (its first parameter). */
const OPTED_OUT = 'EXISTS (SELECT 1 FROM opt_out o WHERE o.account_id = c.account_id AND o.sandbox = ? AND o.phone = c.phone)';
const COLUMNS = `SELECT c.id, c.account_id, c.name, c.email, c.phone, c.country, c.language, c.attributes, c.created_by, c.created_at, c.updated_at,
  ${OPTED_OUT} AS opted_out`;
const SELECT = `${COLUMNS} FROM contact c`;
/** Contacts per insert statement. */
const INSERT_ROWS = 500;
const INSERTED_COLUMNS = [
  'id', 'account_id', 'name', 'email', 'phone', 'country', 'language', 'attributes', 'search_name', 'search_email', 'created_by', 'created_at', 'updated_at',
];

@Injectable()
export class ContactRepository {
  /** The account's contact with this number. */
  findByPhone(sql: Sql, accountId: string, phone: string): Promise<ContactRef | undefined> {
    return sql.get<ContactRef>('SELECT id, name, email, phone FROM contact WHERE account_id = ? AND phone = ?', [accountId, phone]);
  }

  /** The number of the account's contact; undefined when the account has no such contact. */
  async phoneOf(sql: Sql, accountId: string, id: string): Promise<string | undefined> {
    return (await sql.get<{ phone: string }>('SELECT phone FROM contact WHERE id = ? AND account_id = ?', [id, accountId]))?.phone;
  }

  async find(sql: Sql, accountId: string, id: string, sandbox: boolean): Promise<ContactRecord | null> {
    const row = await sql.get<ContactRow>(`${SELECT} WHERE c.id = ? AND c.account_id = ?`, [sandbox, id, accountId]);
    return row ? toRecord(row) : null;
  }

  async findMany(sql: Sql, accountId: string, ids: readonly string[], sandbox: boolean): Promise<ContactRecord[]> {
    if (ids.length === 0) return [];
    const rows = await sql.all<ContactRow>(`${SELECT} WHERE c.account_id = ? AND c.id IN (${placeholders(ids)})`, [sandbox, accountId, ...ids]);
    return rows.map(toRecord);
  }

  /** The account's contacts with these numbers, locked until the unit ends (MySQL). */
  private async lockByPhones(sql: Sql, accountId: string, phones: readonly string[]): Promise<Array<{ id: string; phone: string; columns: ContactColumns }>> {
    if (phones.length === 0) return [];
    const rows = await sql.all<ContactRow>(
      `SELECT id, name, email, phone, country, language, attributes FROM contact WHERE account_id = ? AND phone IN (${placeholders(phones)})${sql.forUpdate}`,
      [accountId, ...phones],
    );
    return rows.map((row) => ({ id: row.id, phone: row.phone, columns: toColumns(row) }));
  }

  async lock(sql: Sql, accountId: string, id: string): Promise<ContactColumns | null> {
    const row = await sql.get<ContactRow>(
      `SELECT name, email, phone, country, language, attributes FROM contact WHERE id = ? AND account_id = ?${sql.forUpdate}`,
      [id, accountId],
    );
    return row ? toColumns(row) : null;
  }

  /**
   * Inserts the contacts whose phone the account does not have yet, 500 per
   * statement, in the order of their phones (two units of work inserting the
   * same phones lock them in the same order), and returns the contacts that
   * hold the other phones, locked until the unit ends (MySQL): those the
   * account had, and those another unit of work inserted first, read back
   * when a statement did not insert all its rows.
   */
  async insertAbsent(
    sql: Sql,
    accountId: string,
    createdBy: string | null,
    at: Date,
    contacts: ReadonlyArray<{ id: string; columns: ContactColumns }>,
  ): Promise<Array<{ id: string; phone: string; columns: ContactColumns }>> {
    // MySQL locks the contacts the account has first, each alone: inserted again as duplicates, they would also
    // lock the gaps beside them, where the inserts of concurrent units of work would deadlock
    const had = sql.dialect === 'mysql' ? await this.lockByPhones(sql, accountId, contacts.map((contact) => contact.columns.phone)) : [];
    const held = new Set(had.map((contact) => contact.phone));
    const absent = contacts.filter((contact) => !held.has(contact.columns.phone)).sort((a, b) => (a.columns.phone < b.columns.phone ? -1 : 1));
    let allInserted = true;
    for (let start = 0; start < absent.length; start += INSERT_ROWS) {
      const rows = absent.slice(start, start + INSERT_ROWS).map(({ id, columns }) => [id, accountId, ...columnValues(columns), createdBy, at, at]);
      if (!(await sql.insertAllIfAbsent('contact', INSERTED_COLUMNS, rows))) allInserted = false;
    }
    if (allInserted) return had;
    const ours = new Set(absent.map((contact) => contact.id));
    const others = await this.lockByPhones(sql, accountId, absent.map((contact) => contact.columns.phone));
    return [...had, ...others.filter((contact) => !ours.has(contact.id))];
  }

  /** Writes a contact's columns; false when the account has no such contact. */
  async update(sql: Sql, accountId: string, id: string, columns: ContactColumns, at: Date): Promise<boolean> {
    const changed = await sql.run(
      `UPDATE contact SET name = ?, email = ?, phone = ?, country = ?, language = ?, attributes = ?, search_name = ?, search_email = ?, updated_at = ?
        WHERE id = ? AND account_id = ?`,
      [...columnValues(columns), at, id, accountId],
    );
    return changed === 1;
  }

  /** Deletes a contact whose memberships have ended; false when the account has no such contact. */
  async delete(sql: Sql, accountId: string, id: string): Promise<boolean> {
    return (await sql.run('DELETE FROM contact WHERE id = ? AND account_id = ?', [id, accountId])) === 1;
  }

  /**
   * A page of the account's contacts, newest first. The page's keys are found
   * first, from an index alone, and only those rows are read: MariaDB would
   * otherwise walk every row newer than the cursor to reach a deep page.
   * Members of a group are keyed by the group's membership key; a search
   * reads the name, e-mail and phone indexes by prefix.
   */
  async list(sql: Sql, accountId: string, sandbox: boolean, filters: ContactFilters, page: Page): Promise<ContactRecord[]> {
    const conditions = ['c.account_id = ?'];
    const params: Param[] = [accountId];
    let keys = 'SELECT c.id AS page_key FROM contact c';
    let key = 'c.id';
    if (filters.groupId !== undefined) {
      // the group's keys lead, read in order: led by the contacts, SQLite and MariaDB sorted them all (CROSS and STRAIGHT_JOIN fix the order)
      keys = `SELECT m.contact_id AS page_key FROM contact_group_member m ${sql.joinInOrder} contact c ON c.id = m.contact_id`;
      conditions.unshift('m.group_id = ?');
      params.unshift(filters.groupId);
      key = 'm.contact_id';
    }
    const search = [
      ...(filters.nameOrEmail ? [prefixRange('c.search_name', filters.nameOrEmail.name), prefixRange('c.search_email', filters.nameOrEmail.email)] : []),
      ...(filters.phonePrefix ? [prefixRange('c.phone', filters.phonePrefix, 'ascii')] : []),
    ];
    if (search.length > 0) {
      conditions.push(`(${search.map((range) => range.condition).join(' OR ')})`);
      params.push(...search.flatMap((range) => range.params));
    }
    if (filters.optedOut !== undefined) {
      conditions.push(filters.optedOut ? OPTED_OUT : `NOT ${OPTED_OUT}`);
      params.push(sandbox);
    }
    const created = createdRange(key, filters.createdFrom, filters.createdTo);
    conditions.push(...created.conditions);
    params.push(...created.params);
    // MariaDB walks the primary key, or the account's whole index range, for a plain list unless told which index serves it
    if (sql.dialect === 'mysql' && key === 'c.id' && search.length === 0) keys = keys.replace('FROM contact c', 'FROM contact c FORCE INDEX (IDX_contact_account_id)');
    const [keyQuery, keyParams] = page.query(keys, key, conditions, params);
    const rows = await sql.all<ContactRow>(
      `${COLUMNS} FROM (${keyQuery}) keyset_page CROSS JOIN contact c ON c.id = keyset_page.page_key ORDER BY keyset_page.page_key DESC`,
      [
        sandbox,
        ...keyParams,
      ],
    );
    return rows.map(toRecord);
  }
}

function columnValues(columns: ContactColumns): Param[] {
  return [
    columns.name,
    columns.email,
    columns.phone,
    columns.country,
    columns.language,
    JSON.stringify(columns.attributes),
    columns.name === null ? null : contactSearchKey(columns.name),
    columns.email,
  ];
}

const toColumns = (row: ContactRow): ContactColumns => ({
  name: row.name,
  email: row.email,
  phone: row.phone,
  country: row.country,
  language: row.language,
  attributes: readAttributes(row.attributes),
});

const readAttributes = (text: string | null): Record<string, string> => (text ? (JSON.parse(text) as Record<string, string>) : {});

function toRecord(row: ContactRow): ContactRecord {
  const createdAt = readTime(row.created_at);
  return {
    ...toColumns(row),
    id: row.id,
    accountId: row.account_id,
    optedOut: readBoolean(row.opted_out),
    createdBy: row.created_by,
    createdAt,
    updatedAt: readTime(row.updated_at) ?? createdAt,
  };
}
