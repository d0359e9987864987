import { Injectable } from '@nestjs/common';
import { readTime, type Sql } from '../database/sql.js';
import { Account } from './entities/account.entity.js';

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
