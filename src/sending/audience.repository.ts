import { Injectable } from '@nestjs/common';
import { placeholders, type Sql } from '../database/sql.js';
import { listedQuery } from '../opt-out/opt-out.repository.js';

/** A contact as a message to it needs it: its number, and what fills the placeholders. */
export interface AudienceContact {
  id: string;
  phone: string;
  country: string | null;
  name: string | null;
  attributes: Record<string, string>;
}

interface AudienceRow {
  id: string;
  phone: string;
  country: string | null;
  name: string | null;
  attributes: string | null;
}

const COLUMNS = 'c.id, c.phone, c.country, c.name, c.attributes';
const CHUNK = 500;

/** The reads that turn a send's numbers, contacts and groups into recipients. */
@Injectable()
export class AudienceRepository {
  /** The account's contacts among `ids`. */
  async contacts(sql: Sql, accountId: string, ids: readonly string[]): Promise<AudienceContact[]> {
    return this.chunked(ids, (chunk) =>
      sql.all<AudienceRow>(`SELECT ${COLUMNS} FROM contact c WHERE c.account_id = ? AND c.id IN (${placeholders(chunk)})`, [accountId, ...chunk]),
    );
  }

  /** The account's contacts with these numbers. */
  async contactsByPhone(sql: Sql, accountId: string, phones: readonly string[]): Promise<AudienceContact[]> {
    return this.chunked(phones, (chunk) => sql.all<AudienceRow>(byPhone(chunk), [accountId, ...chunk]));
  }

  /**
   * The account's contacts with these numbers (a hundred at most, see Audience), and those of the numbers on the opt-out list
   * of the key's mode: one round trip on MySQL.
   */
  async contactsAndOptOutsByPhone(
    sql: Sql,
    accountId: string,
    sandbox: boolean,
    phones: readonly string[],
  ): Promise<{ contacts: AudienceContact[]; optedOut: Set<string> }> {
    if (phones.length === 0) return { contacts: [], optedOut: new Set() };
    const [contacts, optedOut] = await sql.allEach<[AudienceRow[], Array<{ phone: string }>]>(
      [byPhone(phones), [accountId, ...phones]],
      listedQuery(accountId, sandbox, phones),
    );
    return { contacts: contacts.map(toContact), optedOut: new Set(optedOut.map((row) => row.phone)) };
  }

  /** Up to `limit` members of a group (of the account: checked by the caller), in a stable order. */
  async members(sql: Sql, groupId: string, limit: number): Promise<AudienceContact[]> {
    const rows = await sql.all<AudienceRow>(
      `SELECT ${COLUMNS} FROM contact_group_member m JOIN contact c ON c.id = m.contact_id WHERE m.group_id = ? ORDER BY m.contact_id LIMIT ${Number(limit)}`,
      [groupId],
    );
    return rows.map(toContact);
  }

  /** The numbers of every member of a group (of the account: checked by the caller). */
  async memberPhones(sql: Sql, groupId: string): Promise<string[]> {
    const rows = await sql.all<{ phone: string }>('SELECT c.phone FROM contact_group_member m JOIN contact c ON c.id = m.contact_id WHERE m.group_id = ?', [groupId]);
    return rows.map((row) => row.phone);
  }

  private async chunked(keys: readonly string[], read: (chunk: readonly string[]) => Promise<AudienceRow[]>): Promise<AudienceContact[]> {
    const found: AudienceContact[] = [];
    for (let start = 0; start < keys.length; start += CHUNK) {
      for (const row of await read(keys.slice(start, start + CHUNK))) found.push(toContact(row));
    }
    return found;
  }
}

const byPhone = (phones: readonly string[]) => `SELECT ${COLUMNS} FROM contact c WHERE c.account_id = ? AND c.phone IN (${placeholders(phones)})`;

const toContact = (row: AudienceRow): AudienceContact => ({
  id: row.id,
  phone: row.phone,
  country: row.country,
  name: row.name,
  attributes: row.attributes ? (JSON.parse(row.attributes) as Record<string, string>) : {},
});
