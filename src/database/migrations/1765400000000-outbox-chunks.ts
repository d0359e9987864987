import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bulk lane's outbox entries hold a chunk of a lot: up to 100 messages of
 * one account and one due time, their payloads in one document, and what has
 * become of each so far (`progress`). `messages` counts those not yet settled
 * (1 for an OTP's entry), which the backlog adds up. On MySQL a chunk's
 * payload and progress outgrow TEXT's 64 KB (100 texts of 1,600 characters).
 */
export class OutboxChunks1765400000000 implements MigrationInterface {
  name = 'OutboxChunks1765400000000';

  async up(runner: QueryRunner): Promise<void> {
    const mysql = runner.connection.driver.options.type === 'mysql';
    await runner.query('ALTER TABLE outbox ADD COLUMN messages INT NOT NULL DEFAULT 1');
    await runner.query(`ALTER TABLE outbox ADD COLUMN progress ${mysql ? 'MEDIUMTEXT' : 'TEXT'} NULL`);
    if (mysql) await runner.query('ALTER TABLE outbox MODIFY payload MEDIUMTEXT NOT NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    if (runner.connection.driver.options.type === 'mysql') await runner.query('ALTER TABLE outbox MODIFY payload TEXT NOT NULL');
    await runner.query('ALTER TABLE outbox DROP COLUMN progress');
    await runner.query('ALTER TABLE outbox DROP COLUMN messages');
  }
}
