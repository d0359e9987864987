import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * The whole schema, for SQLite and MySQL/MariaDB alike.
 *
 * Tables keyed by a UUID or a composite key are WITHOUT ROWID on SQLite: one
 * B-tree per insert instead of two. Hot tables carry as few indexes as their
 * queries need.
 *
 * Hot tables (otp, message_out, outbox, ledger_entry, ...) carry no foreign key
 * to `account`: on InnoDB each such key takes a shared lock on the account row,
 * which the balance debit at the end of a send then has to upgrade, and two
 * concurrent sends would deadlock. Accounts are never deleted.
 */
export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);

    await runner.createTable(
      new Table({
        name: 'account',
        columns: [
          c.id('id', { isPrimary: true }),
          c.text('name', 120),
          c.text('email', 254, { isNullable: true }),
          c.text('phone', 32, { isNullable: true }),
          c.money('balance'),
          c.text('address', 255, { isNullable: true }),
          c.text('logo_url', 2048, { isNullable: true }),
          { name: 'country_id', type: 'int', isNullable: true },
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'user',
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.text('name', 120),
          c.text('email', 254, { isNullable: true }),
          c.time('deleted_at', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_user_account', columnNames: ['account_id'] }],
        foreignKeys: [{ columnNames: ['account_id'], referencedTableName: 'account', referencedColumnNames: ['id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'api_key',
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('user_id'),
          c.id('account_id'),
          c.exact('key_hash', 64),
          c.text('prefix', 16),
          c.flag('is_test'),
          c.time('revoked_at', { isNullable: true }),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_api_key_hash', columnNames: ['key_hash'] }],
        indices: [{ name: 'IDX_api_key_user', columnNames: ['user_id'] }],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'user', referencedColumnNames: ['id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'sender',
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.text('name', 15),
          c.exactText('name_key', 15),
          c.text('email', 254, { isNullable: true }),
          c.text('phone', 32, { isNullable: true }),
          c.flag('is_default'),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_sender_account_name', columnNames: ['account_id', 'name_key'] }],
        foreignKeys: [{ columnNames: ['account_id'], referencedTableName: 'account', referencedColumnNames: ['id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'local_number',
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.exact('dial_code', 8),
          c.exact('number', 16),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_local_number_account_dial', columnNames: ['account_id', 'dial_code'] }],
        foreignKeys: [{ columnNames: ['account_id'], referencedTableName: 'account', referencedColumnNames: ['id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'contact',
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.text('name', 120, { isNullable: true }),
          c.text('email', 254, { isNullable: true }),
          c.exact('phone', 16, { isNullable: true }),
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_contact_account_phone', columnNames: ['account_id', 'phone'] }],
        foreignKeys: [{ columnNames: ['account_id'], referencedTableName: 'account', referencedColumnNames: ['id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'contact_group',
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.text('name', 120),
          c.text('description', 500, { isNullable: true }),
          c.id('created_by', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_contact_group_account', columnNames: ['account_id'] }],
        foreignKeys: [{ columnNames: ['account_id'], referencedTableName: 'account', referencedColumnNames: ['id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'contact_group_member',
        columns: [c.id('group_id', { isPrimary: true }), c.id('contact_id', { isPrimary: true }), c.time('created_at')],
        indices: [{ name: 'IDX_contact_group_member_contact', columnNames: ['contact_id'] }],
        foreignKeys: [
          { columnNames: ['group_id'], referencedTableName: 'contact_group', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
          { columnNames: ['contact_id'], referencedTableName: 'contact', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'message_price',
        columns: [
          c.id('id', { isPrimary: true }),
          c.exact('channel', 8),
          c.exact('dial_code', 8),
          c.text('description', 120),
          c.money('amount'),
          c.time('created_at'),
        ],
        uniques: [{ name: 'UQ_message_price_channel_dial', columnNames: ['channel', 'dial_code'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'message_out',
        withoutRowid: true,
        columns: [
          c.id('uniq_id', { isPrimary: true }),
          c.id('account_id'),
          c.text('external_id', 64, { isNullable: true }),
          c.id('message_price_id', { isNullable: true }),
          c.exact('type', 8),
          c.exact('lot', 26),
          c.id('sender_id', { isNullable: true }),
          c.exact('recipient', 16),
          { name: 'message', type: 'text' },
          { name: 'page', type: 'int' },
          c.exact('message_encoding', 8),
          c.money('amount'),
          c.time('send_at'),
          c.time('done_at', { isNullable: true }),
          c.exact('mccmnc', 8, { isNullable: true }),
          { name: 'dlr_number_retry', type: 'int', default: 0 },
          c.exact('provider', 16, { isNullable: true }),
          c.exact('provider_id', 64, { isNullable: true }),
          c.exact('provider_status', 16, { isNullable: true }),
          c.exact('source', 8),
          c.exact('status', 12),
          c.id('created_by'),
          c.text('webhook_url', 2048, { isNullable: true }),
          { name: 'webhook_response', type: 'text', isNullable: true },
          c.flag('retrieve'),
          c.exact('local_number', 16, { isNullable: true }),
          c.exact('language', 2, { isNullable: true }),
          c.flag('is_test'),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_message_out_account_lot', columnNames: ['account_id', 'lot', 'created_at'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'otp',
        withoutRowid: true,
        columns: [
          c.id('uniq_id', { isPrimary: true }),
          c.id('account_id'),
          c.exactText('recipient', 254),
          c.exact('channel', 8),
          c.exact('code_hash', 64),
          c.exact('status', 12),
          { name: 'attempts', type: 'int', default: 0 },
          c.time('expires_at'),
          c.time('verified_at', { isNullable: true }),
          c.text('application_name', 100, { isNullable: true }),
          c.exact('language', 2),
          c.exact('lot', 26),
          c.id('created_by'),
          c.flag('is_test'),
          c.exact('delivery_status', 12, { isNullable: true }),
          c.exact('provider', 16, { isNullable: true }),
          c.exact('provider_id', 255, { isNullable: true }),
          c.time('done_at', { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_otp_account_recipient_created', columnNames: ['account_id', 'recipient', 'created_at'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'otp_recipient',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          c.exactText('recipient', 254, { isPrimary: true }),
          c.id('latest_otp_id', { isNullable: true }),
          c.time('created_at'),
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'verification_failure',
        columns: [c.serial('id'), c.id('account_id'), c.exactText('recipient', 254), c.time('created_at')],
        indices: [
          { name: 'IDX_verification_failure_recipient', columnNames: ['account_id', 'recipient', 'created_at'] },
          { name: 'IDX_verification_failure_created', columnNames: ['created_at'] },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'ledger_entry',
        columns: [
          c.serial('id'),
          c.id('account_id'),
          c.money('amount'),
          c.exact('kind', 12),
          c.exact('reference', 64, { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_ledger_entry_account', columnNames: ['account_id', 'id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'outbox',
        columns: [
          c.serial('id'),
          c.exact('kind', 8),
          c.id('record_id'),
          c.id('account_id'),
          c.money('amount'),
          { name: 'payload', type: 'text' },
          c.flag('is_test'),
          c.time('deliver_before', { isNullable: true }),
          { name: 'attempts', type: 'int', default: 0 },
          c.time('available_at'),
          c.exact('claimed_by', 64, { isNullable: true }),
          c.text('last_error', 255, { isNullable: true }),
          { name: 'resume_state', type: 'text', isNullable: true },
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_outbox_available', columnNames: ['available_at', 'id'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'message_part',
        withoutRowid: true,
        columns: [
          c.exact('provider', 16, { isPrimary: true }),
          c.exact('provider_id', 64, { isPrimary: true }),
          c.id('uniq_id'),
          { name: 'part_no', type: 'int' },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'delivery_receipt',
        columns: [
          c.serial('id'),
          c.exact('provider', 16),
          c.exact('provider_id', 64),
          c.exact('outcome', 12, { isNullable: true }),
          c.exact('provider_status', 16),
          c.time('received_at'),
        ],
        indices: [
          { name: 'IDX_delivery_receipt_provider_id', columnNames: ['provider', 'provider_id'] },
          { name: 'IDX_delivery_receipt_received', columnNames: ['received_at'] },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'rate_limit_window',
        withoutRowid: true,
        columns: [
          c.exact('bucket', 128, { isPrimary: true }),
          c.time('window_start', { isPrimary: true }),
          { name: 'hits', type: 'int', default: 0 },
        ],
        indices: [{ name: 'IDX_rate_limit_window_start', columnNames: ['window_start'] }],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'idempotency_record',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          c.exact('idem_key', 255, { isPrimary: true }),
          c.exact('fingerprint', 64),
          c.exact('state', 12),
          { name: 'status_code', type: 'int', isNullable: true },
          { name: 'response', type: 'text', isNullable: true },
          c.time('locked_until'),
          c.time('expires_at'),
          c.time('created_at'),
        ],
        indices: [{ name: 'IDX_idempotency_record_expires', columnNames: ['expires_at'] }],
      }),
    );

    await seedPrices(runner);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'idempotency_record',
      'rate_limit_window',
      'delivery_receipt',
      'message_part',
      'outbox',
      'ledger_entry',
      'verification_failure',
      'otp_recipient',
      'otp',
      'message_out',
      'message_price',
      'contact_group_member',
      'contact_group',
      'contact',
      'local_number',
      'sender',
      'api_key',
      'user',
      'account',
    ]) {
      await runner.dropTable(table, true);
    }
  }
}

/** Prices in hundredths: the `*` row applies to any destination without its own row. */
const SEED_PRICES: Array<[channel: string, dialCode: string, description: string, amount: number]> = [
  ['SMS', '*', 'SMS, toute destination', 500],
  ['SMS', '+225', "SMS Côte d'Ivoire", 250],
  ['SMS', '+221', 'SMS Sénégal', 275],
  ['SMS', '+237', 'SMS Cameroun', 300],
  ['SMS', '+33', 'SMS France', 450],
  ['EMAIL', '*', 'E-mail', 50],
];

const SEED_PRICE_IDS = [
  '0191f3a0-0000-7000-8000-000000000001',
  '0191f3a0-0000-7000-8000-000000000225',
  '0191f3a0-0000-7000-8000-000000000221',
  '0191f3a0-0000-7000-8000-000000000237',
  '0191f3a0-0000-7000-8000-000000000033',
  '0191f3a0-0000-7000-8000-0000000000e1',
];

async function seedPrices(runner: QueryRunner): Promise<void> {
  const createdAt = new Date().toISOString().slice(0, 23).replace('T', ' ');
  for (const [index, [channel, dialCode, description, amount]] of SEED_PRICES.entries()) {
    await runner.query(
      'INSERT INTO message_price (id, channel, dial_code, description, amount, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [SEED_PRICE_IDS[index], channel, dialCode, description, amount, createdAt],
    );
  }
}
