import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * The OTP fraud guard (SPEC-3 §3). Each OTP keeps what its signals read: the
 * end user's address and reference, the destination's country and prefix (the
 * number without its last four digits), with one index per velocity count,
 * each ending in the creation time so that a count of the last hour is one
 * index range (partial on SQLite: e-mail OTPs and sends without an address or
 * a reference are not in them). An account's policy, lists and blocks, one set
 * per key mode, and the version every change of them bumps, which each
 * instance's cache polls; the attempts the guard refused or recorded, with
 * their reasons; a row per velocity key, which serialises the sends sharing
 * it on MariaDB and keeps a country's sends by minute; and the one row of the
 * low-conversion job.
 */
export class OtpFraudGuard1765600000000 implements MigrationInterface {
  name = 'OtpFraudGuard1765600000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    const mysql = runner.connection.driver.options.type === 'mysql';
    const ascii = (length: number) => (mysql ? `VARCHAR(${length}) CHARACTER SET ascii COLLATE ascii_bin` : `VARCHAR(${length})`);
    // in place: TypeORM would rebuild the table on SQLite
    await runner.query(`ALTER TABLE otp ADD COLUMN client_ip ${ascii(45)} NULL`);
    await runner.query(`ALTER TABLE otp ADD COLUMN user_ref ${mysql ? 'VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : 'VARCHAR(128)'} NULL`);
    await runner.query(`ALTER TABLE otp ADD COLUMN country ${ascii(2)} NULL`);
    await runner.query(`ALTER TABLE otp ADD COLUMN prefix ${ascii(16)} NULL`);
    const partial = (column: string) => (mysql ? undefined : `${column} IS NOT NULL`);
    for (const index of [
      new TableIndex({ name: 'IDX_otp_fraud_ip', columnNames: ['account_id', 'is_test', 'client_ip', 'created_at'], where: partial('client_ip') }),
      new TableIndex({ name: 'IDX_otp_fraud_user', columnNames: ['account_id', 'is_test', 'user_ref', 'created_at'], where: partial('user_ref') }),
      new TableIndex({ name: 'IDX_otp_fraud_prefix', columnNames: ['account_id', 'is_test', 'prefix', 'created_at', 'recipient'], where: partial('prefix') }),
      new TableIndex({ name: 'IDX_otp_fraud_country', columnNames: ['account_id', 'is_test', 'country', 'created_at'], where: partial('country') }),
      // GET /v1/metrics's OTP totals: a range of the account's ids, their status read from the index
      new TableIndex({ name: 'IDX_otp_account_mode_id_status', columnNames: ['account_id', 'is_test', 'uniq_id', 'status'] }),
    ]) {
      await runner.createIndex('otp', index);
    }

    await runner.createTable(
      new Table({
        name: 'fraud_policy',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          { ...c.flag('sandbox'), isPrimary: true },
          { name: 'policy', type: 'text', isNullable: true },
          { name: 'version', type: 'int', default: 0 },
          c.time('changed_at'),
        ],
        indices: [{ name: 'IDX_fraud_policy_changed', columnNames: ['changed_at'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'fraud_list_entry',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.flag('sandbox'),
          c.exact('list', 5),
          c.exact('kind', 8),
          c.exactText('value', 128),
          c.text('note', 255, { isNullable: true }),
          c.time('expires_at', { isNullable: true }),
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_fraud_list_entry', columnNames: ['account_id', 'sandbox', 'list', 'kind', 'value'] }],
        indices: [
          { name: 'IDX_fraud_list_entry_account', columnNames: ['account_id', 'sandbox', 'id'] },
          { name: 'IDX_fraud_list_entry_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'fraud_block',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.flag('sandbox'),
          c.exact('scope', 8),
          c.exact('value', 16),
          c.exact('reason', 16),
          c.exact('mode', 8),
          { name: 'strikes', type: 'int', default: 1 },
          c.time('blocked_until'),
          c.time('lifted_at', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [
          { name: 'IDX_fraud_block_account', columnNames: ['account_id', 'sandbox', 'id'] },
          { name: 'IDX_fraud_block_key', columnNames: ['account_id', 'sandbox', 'scope', 'value', 'id'] },
          { name: 'IDX_fraud_block_until', columnNames: ['blocked_until'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'fraud_attempt',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.flag('sandbox'),
          c.exact('mode', 9),
          c.exact('reasons', 255),
          c.exact('channel', 8),
          c.exactText('recipient', 254),
          c.exact('country', 2, { isNullable: true }),
          c.exact('prefix', 16, { isNullable: true }),
          c.exact('client_ip', 45, { isNullable: true }),
          c.exactText('user_ref', 128, { isNullable: true }),
          c.id('otp_id', { isNullable: true }),
          c.time('blocked_until', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [
          { name: 'IDX_fraud_attempt_account', columnNames: ['account_id', 'sandbox', 'id'] },
          { name: 'IDX_fraud_attempt_account_mode', columnNames: ['account_id', 'sandbox', 'mode', 'id'] },
          { name: 'IDX_fraud_attempt_account_country', columnNames: ['account_id', 'sandbox', 'country', 'id'] },
          { name: 'IDX_fraud_attempt_mode', columnNames: ['mode', 'id'] },
          { name: 'IDX_fraud_attempt_country', columnNames: ['country', 'id'] },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'fraud_attempt_reason',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          { ...c.flag('sandbox'), isPrimary: true },
          c.exact('reason', 32, { isPrimary: true }),
          c.id('attempt_id', { isPrimary: true }),
        ],
        indices: [{ name: 'IDX_fraud_attempt_reason', columnNames: ['reason', 'attempt_id'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'fraud_velocity_key',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          { ...c.flag('sandbox'), isPrimary: true },
          c.exact('kind', 8, { isPrimary: true }),
          c.exactText('value', 128, { isPrimary: true }),
          c.time('touched_at'),
          // a country's sends by minute, kept while its bursts are enforced: the newest minute, and the counts newest first
          { name: 'minute', type: 'bigint', isNullable: true },
          c.exact('counts', 128, { isNullable: true }),
        ],
        indices: [{ name: 'IDX_fraud_velocity_key_touched', columnNames: ['touched_at'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'fraud_conversion_job',
        columns: [
          { name: 'id', type: 'int', isPrimary: true },
          c.time('available_at', { isNullable: true }),
          c.exact('claimed_by', 64, { isNullable: true }),
          { name: 'attempts', type: 'int', default: 0 },
        ],
        indices: [{ name: 'IDX_fraud_conversion_job_available', columnNames: ['available_at', 'id'] }],
      }),
    );
    await runner.query('INSERT INTO fraud_conversion_job (id, available_at, attempts) VALUES (1, ?, 0)', [mysql ? new Date(0) : '1970-01-01 00:00:00.000']);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['fraud_conversion_job', 'fraud_velocity_key', 'fraud_attempt_reason', 'fraud_attempt', 'fraud_block', 'fraud_list_entry', 'fraud_policy']) {
      await runner.dropTable(table, true);
    }
    for (const index of ['IDX_otp_account_mode_id_status', 'IDX_otp_fraud_country', 'IDX_otp_fraud_prefix', 'IDX_otp_fraud_user', 'IDX_otp_fraud_ip']) {
      await runner.dropIndex('otp', index);
    }
    for (const column of ['prefix', 'country', 'user_ref', 'client_ip']) await runner.query(`ALTER TABLE otp DROP COLUMN ${column}`);
  }
}
