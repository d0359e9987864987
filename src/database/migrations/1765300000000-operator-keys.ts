import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * The operator's HTTP interface (`/v1/admin`): operator keys, which belong to
 * no account and are stored only as the SHA-256 of the key; the description
 * an operator gives a credit, kept on its ledger row; the senders waiting for
 * review across accounts, listed newest first by status.
 */
export class OperatorKeys1765300000000 implements MigrationInterface {
  name = 'OperatorKeys1765300000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    await runner.createTable(
      new Table({
        name: 'operator_key',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.text('name', 100),
          c.exact('key_hash', 64),
          c.exact('prefix', 16),
          c.time('revoked_at', { isNullable: true }),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_operator_key_hash', columnNames: ['key_hash'] }],
      }),
    );
    // in place: TypeORM would rebuild the table on SQLite
    await runner.query('ALTER TABLE ledger_entry ADD COLUMN description VARCHAR(255) NULL');
    await runner.createIndex('sender', new TableIndex({ name: 'IDX_sender_status_id', columnNames: ['status', 'id'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('sender', 'IDX_sender_status_id');
    await runner.query('ALTER TABLE ledger_entry DROP COLUMN description');
    await runner.dropTable('operator_key');
  }
}
