import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * Ordinary SMS sent in bulk and later: a message knows its contact and its
 * campaign; a lot named by the client is unique per account (`message_lot`);
 * an outbox entry may wait for its time (`scheduled`: promoted to pending, or
 * dropped if cancelled, when claimed). The list routes' filters each have an
 * index that keeps newest-first order (the uniq_id is time-ordered): the lot's
 * index ends with the uniq_id instead of the creation time, which orders the
 * same.
 */
export class BulkSms1764500000000 implements MigrationInterface {
  name = 'BulkSms1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    const mysql = runner.connection.driver.options.type === 'mysql';
    const c = columnsFor(runner);
    const id = mysql ? 'CHAR(36) CHARACTER SET ascii COLLATE ascii_bin' : 'VARCHAR(36)';
    for (const column of [`contact_id ${id} NULL`, `campaign_id ${id} NULL`]) {
      await runner.query(`ALTER TABLE message_out ADD COLUMN ${column}`);
    }
    if (mysql) {
      // a client's lot may be 64 characters and its external_id 100; SQLite does not enforce lengths
      await runner.query('ALTER TABLE message_out MODIFY lot VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL');
      await runner.query('ALTER TABLE message_out MODIFY external_id VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NULL');
    }
    await runner.query('ALTER TABLE outbox ADD COLUMN scheduled BOOLEAN NOT NULL DEFAULT 0');
    // a scheduled entry joins the queue (`created_at`) when it is due: the oldest due entry is the first by this index
    await runner.createIndex('outbox', new TableIndex({ name: 'IDX_outbox_created', columnNames: ['created_at'] }));

    await runner.dropIndex('message_out', 'IDX_message_out_account_lot');
    await runner.createIndices('message_out', [
      new TableIndex({ name: 'IDX_message_out_account_lot', columnNames: ['account_id', 'lot', 'uniq_id'] }),
      new TableIndex({ name: 'IDX_message_out_account_id', columnNames: ['account_id', 'is_test', 'uniq_id'] }),
      new TableIndex({ name: 'IDX_message_out_account_status', columnNames: ['account_id', 'is_test', 'status', 'uniq_id'] }),
      new TableIndex({ name: 'IDX_message_out_account_to', columnNames: ['account_id', 'recipient', 'uniq_id'] }),
      // most messages have neither: SQLite leaves them out of these indexes (MySQL has no partial indexes)
      new TableIndex({ name: 'IDX_message_out_account_campaign', columnNames: ['account_id', 'campaign_id', 'uniq_id'], where: mysql ? undefined : 'campaign_id IS NOT NULL' }),
      new TableIndex({ name: 'IDX_message_out_account_external', columnNames: ['account_id', 'external_id', 'uniq_id'], where: mysql ? undefined : 'external_id IS NOT NULL' }),
      new TableIndex({ name: 'IDX_message_out_account_contact', columnNames: ['account_id', 'contact_id', 'uniq_id'], where: mysql ? undefined : 'contact_id IS NOT NULL' }),
    ]);

    await runner.createTable(
      new Table({
        name: 'message_lot',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          c.exact('lot', 64, { isPrimary: true }),
          c.id('campaign_id', { isNullable: true }),
          c.flag('is_test'),
          c.time('created_at'),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('message_lot', true);
    for (const index of [
      'IDX_message_out_account_id',
      'IDX_message_out_account_status',
      'IDX_message_out_account_to',
      'IDX_message_out_account_campaign',
      'IDX_message_out_account_external',
      'IDX_message_out_account_contact',
      'IDX_message_out_account_lot',
    ]) {
      await runner.dropIndex('message_out', index);
    }
    await runner.createIndex('message_out', new TableIndex({ name: 'IDX_message_out_account_lot', columnNames: ['account_id', 'lot', 'created_at'] }));
    await runner.dropIndex('outbox', 'IDX_outbox_created');
    await runner.query('ALTER TABLE outbox DROP COLUMN scheduled');
    for (const column of ['contact_id', 'campaign_id']) await runner.query(`ALTER TABLE message_out DROP COLUMN ${column}`);
  }
}
