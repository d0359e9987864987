import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * The receipts the `log` SMS provider sends itself, `LOG_RECEIPT_DELAY_MS`
 * after each hand-over: a job row written with the hand-over, due at
 * `available_at`, claimed like every job (LeasedTable) and deleted with the
 * receipt's effect, so a restart loses none and applies none twice.
 */
export class LogReceipts1765300000002 implements MigrationInterface {
  name = 'LogReceipts1765300000002';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    await runner.createTable(
      new Table({
        name: 'log_receipt',
        columns: [
          c.serial('id'),
          c.exact('provider_id', 64),
          { name: 'attempts', type: 'int', default: 0 },
          c.time('available_at'),
          c.exact('claimed_by', 64, { isNullable: true }),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_log_receipt_provider_id', columnNames: ['provider_id'] }],
        indices: [{ name: 'IDX_log_receipt_available', columnNames: ['available_at', 'id'] }],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('log_receipt');
  }
}
