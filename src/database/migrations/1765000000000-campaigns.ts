import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * Campaigns: a draft, launched once. The launch freezes the audience into
 * `campaign_recipient` (one row per number, with its text and its price); the
 * worker turns recipients into messages in the order of `n`, and `position`
 * is how many it has turned so far, committed with each chunk. A campaign is
 * a job row (`available_at`, `claimed_by`, `attempts`) while it has work.
 */
export class Campaigns1765000000000 implements MigrationInterface {
  name = 'Campaigns1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);

    await runner.createTable(
      new Table({
        name: 'campaign',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.flag('sandbox'),
          c.text('name', 100),
          { name: 'message', type: 'text' },
          // the sender named at creation (null: the account's default), the one used once launched
          c.id('sender_id', { isNullable: true }),
          { name: 'group_ids', type: 'text' },
          { name: 'exclude_group_ids', type: 'text' },
          c.time('send_at', { isNullable: true }),
          { name: 'delivery_window', type: 'text', isNullable: true },
          c.text('webhook_url', 2048, { isNullable: true }),
          c.flag('append_opt_out'),
          c.exact('status', 10),
          c.exact('lot', 64, { isNullable: true }),
          { name: 'recipients', type: 'int', default: 0 },
          // JSON counts of the numbers left out at launch, by reason
          { name: 'excluded', type: 'text', isNullable: true },
          c.money('amount'),
          c.money('refunded'),
          // recipients already turned into messages (a prefix of `n`)
          { name: 'position', type: 'int', default: 0 },
          // recipients never turned into messages because the campaign was cancelled
          { name: 'cancelled_recipients', type: 'int', default: 0 },
          c.time('available_at', { isNullable: true }),
          c.exact('claimed_by', 64, { isNullable: true }),
          { name: 'attempts', type: 'int', default: 0 },
          c.id('created_by'),
          c.time('created_at'),
          c.time('updated_at'),
          c.time('launched_at', { isNullable: true }),
          c.time('started_at', { isNullable: true }),
          c.time('completed_at', { isNullable: true }),
          c.time('cancelled_at', { isNullable: true }),
          c.text('cancel_reason', 255, { isNullable: true }),
        ],
        indices: [
          { name: 'IDX_campaign_available', columnNames: ['available_at', 'id'] },
          { name: 'IDX_campaign_account_id', columnNames: ['account_id', 'sandbox', 'id'] },
          { name: 'IDX_campaign_account_status', columnNames: ['account_id', 'sandbox', 'status', 'id'] },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'campaign_recipient',
        withoutRowid: true,
        columns: [
          c.id('campaign_id', { isPrimary: true }),
          { name: 'n', type: 'int', isPrimary: true },
          c.id('contact_id', { isNullable: true }),
          c.exact('phone', 16),
          c.exact('country', 2, { isNullable: true }),
          c.id('message_price_id'),
          { name: 'message', type: 'text' },
          { name: 'segments', type: 'int' },
          c.exact('encoding', 8),
          c.money('amount'),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('campaign_recipient', true);
    await runner.dropTable('campaign', true);
  }
}
