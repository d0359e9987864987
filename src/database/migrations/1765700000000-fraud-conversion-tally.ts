import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * The low-conversion job keeps its counts: per account, key mode, country
 * and prefix, the codes of the last 24 hours whose validity has ended and how
 * many of them were verified, as of the time the job last counted to
 * (`counted_to`). Each run adds the codes that ended since and takes out those
 * that left the 24 hours, instead of counting the day again.
 */
export class FraudConversionTally1765700000000 implements MigrationInterface {
  name = 'FraudConversionTally1765700000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    const mysql = runner.connection.driver.options.type === 'mysql';
    // in place: TypeORM would rebuild the table on SQLite
    await runner.query(`ALTER TABLE fraud_conversion_job ADD COLUMN counted_to ${mysql ? 'DATETIME(3)' : 'datetime'} NULL`);
    await runner.createTable(
      new Table({
        name: 'fraud_conversion_tally',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          { ...c.flag('sandbox'), isPrimary: true },
          c.exact('scope', 8, { isPrimary: true }),
          c.exact('value', 16, { isPrimary: true }),
          { name: 'sent', type: 'int', default: 0 },
          { name: 'verified', type: 'int', default: 0 },
        ],
        indices: [{ name: 'IDX_fraud_conversion_tally_sent', columnNames: ['sent'] }],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('fraud_conversion_tally', true);
    await runner.query('ALTER TABLE fraud_conversion_job DROP COLUMN counted_to');
  }
}
