import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A count of the failed verifications recorded under a recipient's row. Writing
 * the row is what makes two verifications of the pair on different Galera nodes
 * conflict at certification (a row lock is local to its node), so that the
 * recipient's failure limit holds cluster-wide.
 */
export class RecipientFailures1765200000000 implements MigrationInterface {
  name = 'RecipientFailures1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE otp_recipient ADD COLUMN failures INT NOT NULL DEFAULT 0');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE otp_recipient DROP COLUMN failures');
  }
}
