import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Sender IDs requested over the API and reviewed by an operator: a status
 * (senders made before are approved), the request's use case and sample, the
 * review. A name is unique among the account's pending and approved senders
 * only (`active_key`, null once rejected), so a rejected name may be asked again.
 */
export class SenderReview1764400000000 implements MigrationInterface {
  name = 'SenderReview1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    const mysql = runner.connection.driver.options.type === 'mysql';
    const ascii = (length: number) => (mysql ? `VARCHAR(${length}) CHARACTER SET ascii COLLATE ascii_bin` : `VARCHAR(${length})`);
    const time = mysql ? 'DATETIME(3)' : 'DATETIME';
    for (const column of [
      `status ${ascii(10)} NOT NULL DEFAULT 'approved'`,
      'use_case VARCHAR(500) NULL',
      'sample_message VARCHAR(160) NULL',
      `countries ${ascii(255)} NULL`,
      'rejection_reason VARCHAR(500) NULL',
      `created_by ${ascii(36)} NULL`,
      `reviewed_at ${time} NULL`,
      `active_key ${mysql ? 'VARCHAR(15) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : 'VARCHAR(15)'} NULL`,
    ]) {
      await runner.query(`ALTER TABLE sender ADD COLUMN ${column}`);
    }
    await runner.query('UPDATE sender SET active_key = name_key, reviewed_at = created_at');
    // the new indexes first: MariaDB's foreign key on account_id needs one at every moment
    await runner.createIndices('sender', [
      new TableIndex({ name: 'UQ_sender_account_active', columnNames: ['account_id', 'active_key'], isUnique: true }),
      new TableIndex({ name: 'IDX_sender_account_name', columnNames: ['account_id', 'name_key'] }),
      new TableIndex({ name: 'IDX_sender_account_id', columnNames: ['account_id', 'id'] }),
    ]);
    // the first migration's unique constraint is an index on MySQL, part of the table on SQLite
    if (mysql) await runner.dropIndex('sender', 'UQ_sender_account_name');
    else await runner.dropUniqueConstraint('sender', 'UQ_sender_account_name');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query("DELETE FROM sender WHERE status <> 'approved'");
    await runner.createIndex('sender', new TableIndex({ name: 'UQ_sender_account_name', columnNames: ['account_id', 'name_key'], isUnique: true }));
    for (const index of ['UQ_sender_account_active', 'IDX_sender_account_name', 'IDX_sender_account_id']) await runner.dropIndex('sender', index);
    for (const column of ['status', 'use_case', 'sample_message', 'countries', 'rejection_reason', 'created_by', 'reviewed_at', 'active_key']) {
      await runner.query(`ALTER TABLE sender DROP COLUMN ${column}`);
    }
  }
}
