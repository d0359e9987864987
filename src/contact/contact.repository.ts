import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { Contact } from './entities/contact.entity.js';

/** What other records show of a contact. */
export interface ContactRef {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

@Injectable()
export class ContactRepository {
  async insert(sql: Sql, contact: Contact): Promise<void> {
    await (await sql.orm()).insert(Contact, contact);
  }

  async exists(sql: Sql, accountId: string, contactId: string): Promise<boolean> {
    return (await sql.get('SELECT 1 AS found FROM contact WHERE id = ? AND account_id = ?', [contactId, accountId])) !== undefined;
  }

  /** The account's contact with this number, the earliest if several. */
  findByPhone(sql: Sql, accountId: string, phone: string): Promise<ContactRef | undefined> {
    return sql.get<ContactRef>('SELECT id, name, email, phone FROM contact WHERE account_id = ? AND phone = ? ORDER BY created_at, id LIMIT 1', [
      accountId,
      phone,
    ]);
  }
}
