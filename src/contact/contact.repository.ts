import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { Contact } from './entities/contact.entity.js';

@Injectable()
export class ContactRepository {
  async insert(sql: Sql, contact: Contact): Promise<void> {
    await (await sql.orm()).insert(Contact, contact);
  }

  async exists(sql: Sql, accountId: string, contactId: string): Promise<boolean> {
    return (await sql.get('SELECT 1 AS found FROM contact WHERE id = ? AND account_id = ?', [contactId, accountId])) !== undefined;
  }
}
