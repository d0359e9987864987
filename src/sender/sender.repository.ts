import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { LocalNumber } from './entities/local-number.entity.js';
import { Sender } from './entities/sender.entity.js';
import { senderKey } from './sender-name.js';

export interface SenderRef {
  id: string;
  name: string;
}

@Injectable()
export class SenderRepository {
  findByName(sql: Sql, accountId: string, name: string): Promise<SenderRef | undefined> {
    return sql.get<SenderRef>('SELECT id, name FROM sender WHERE account_id = ? AND name_key = ?', [
      accountId,
      senderKey(name),
    ]);
  }

  findDefault(sql: Sql, accountId: string): Promise<SenderRef | undefined> {
    return sql.get<SenderRef>(
      'SELECT id, name FROM sender WHERE account_id = ? AND is_default = 1 LIMIT 1',
      [accountId],
    );
  }

  async findLocalNumber(sql: Sql, accountId: string, dialCode: string): Promise<string | null> {
    const row = await sql.get<{ number: string }>('SELECT number FROM local_number WHERE account_id = ? AND dial_code = ?', [
      accountId,
      dialCode,
    ]);
    return row?.number ?? null;
  }

  async insert(sql: Sql, sender: Omit<Sender, 'nameKey'>): Promise<void> {
    await (await sql.orm()).insert(Sender, { ...sender, nameKey: senderKey(sender.name) });
  }

  async insertLocalNumber(sql: Sql, localNumber: LocalNumber): Promise<void> {
    await (await sql.orm()).insert(LocalNumber, localNumber);
  }
}
