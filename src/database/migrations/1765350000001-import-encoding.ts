import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The encoding a CSV import's file was read in: UTF-8, or Windows-1252 for a file that is not UTF-8. */
export class ImportEncoding1765350000001 implements MigrationInterface {
  name = 'ImportEncoding1765350000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query("ALTER TABLE contact_import ADD COLUMN encoding VARCHAR(16) NOT NULL DEFAULT 'utf-8'");
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE contact_import DROP COLUMN encoding');
  }
}
