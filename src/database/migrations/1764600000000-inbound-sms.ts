import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * Inbound SMS (mobile-originated): one row per message an account's local
 * number received, listed newest first with the `from` and `keyword` filters
 * served by indexes ending in the time-ordered id. A local number is looked up
 * by itself when a message arrives for it.
 */
export class InboundSms1764600000000 implements MigrationInterface {
  name = 'InboundSms1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    await runner.createTable(
      new Table({
        name: 'message_in',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.exact('sender', 16),
          c.exact('recipient', 16),
          { name: 'message', type: 'text' },
          c.exact('message_encoding', 8),
          c.exact('keyword', 12, { isNullable: true }),
          c.exact('provider', 20),
          c.exact('provider_id', 64, { isNullable: true }),
          c.time('received_at'),
        ],
        indices: [
          { name: 'IDX_message_in_account_id', columnNames: ['account_id', 'id'] },
          { name: 'IDX_message_in_account_sender', columnNames: ['account_id', 'sender', 'id'] },
          { name: 'IDX_message_in_account_keyword', columnNames: ['account_id', 'keyword', 'id'] },
        ],
      }),
    );
    await runner.createIndex('local_number', new TableIndex({ name: 'IDX_local_number_number', columnNames: ['number'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('local_number', 'IDX_local_number_number');
    await runner.dropTable('message_in', true);
  }
}
