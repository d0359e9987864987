import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The country of an outgoing message's recipient (ISO-2), which GET /metrics filters on; null for numbers of no single country. */
export class MessageCountry1764800000000 implements MigrationInterface {
  name = 'MessageCountry1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    const mysql = runner.connection.driver.options.type === 'mysql';
    await runner.query(`ALTER TABLE message_out ADD COLUMN country ${mysql ? 'CHAR(2) CHARACTER SET ascii COLLATE ascii_bin' : 'VARCHAR(2)'} NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE message_out DROP COLUMN country');
  }
}
