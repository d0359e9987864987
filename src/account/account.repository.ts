import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { Account } from './entities/account.entity.js';

@Injectable()
export class AccountRepository {
  findById(sql: Sql, accountId: string): Promise<Account | null> {
    return sql.manager.findOne(Account, { where: { id: accountId } });
  }

  async exists(sql: Sql, accountId: string): Promise<boolean> {
    return (await sql.get('SELECT 1 AS found FROM account WHERE id = ?', [accountId])) !== undefined;
  }

  async any(sql: Sql): Promise<boolean> {
    return (await sql.get('SELECT 1 AS found FROM account LIMIT 1')) !== undefined;
  }

  async insert(sql: Sql, account: Account): Promise<void> {
    await sql.manager.insert(Account, account);
  }

  async setOwner(sql: Sql, accountId: string, userId: string): Promise<void> {
    await sql.run('UPDATE account SET created_by = ? WHERE id = ?', [userId, accountId]);
  }
}
