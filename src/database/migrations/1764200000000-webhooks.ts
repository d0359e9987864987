import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * Outgoing webhooks: the account's webhook settings and signing secrets, the
 * outbox of events (written in the transaction of the change each reports) and
 * every delivery attempt. `message_out.event_sequence` counts an SMS's status
 * changes, so that receivers can order its events.
 */
export class Webhooks1764200000000 implements MigrationInterface {
  name = 'Webhooks1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);

    await runner.createTable(
      new Table({
        name: 'account_webhook',
        withoutRowid: true,
        columns: [
          c.id('account_id', { isPrimary: true }),
          c.text('url', 2048, { isNullable: true }),
          // the subscribed event types, each between commas: `,sms.sent,sms.failed,`
          c.exact('events', 1024, { default: "''" }),
          { name: 'secret', type: 'text', isNullable: true },
          { name: 'previous_secret', type: 'text', isNullable: true },
          c.time('previous_secret_until', { isNullable: true }),
          c.time('failing_since', { isNullable: true }),
          c.time('disabled_at', { isNullable: true }),
          c.time('updated_at'),
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'webhook_event',
        withoutRowid: true,
        columns: [
          c.id('id', { isPrimary: true }),
          c.id('account_id'),
          c.exact('type', 40),
          // the record the event is about (an SMS's uniq_id) and its status change number
          c.id('subject_id', { isNullable: true }),
          { name: 'sequence', type: 'int', isNullable: true },
          // the record's own URL; null: the account's webhook
          c.text('url', 2048, { isNullable: true }),
          { name: 'body', type: 'text' },
          c.exact('state', 12),
          { name: 'attempts', type: 'int', default: 0 },
          // null once the event is settled (delivered, gone, exhausted or cancelled)
          c.time('available_at', { isNullable: true }),
          c.exact('claimed_by', 64, { isNullable: true }),
          c.time('created_at'),
        ],
        indices: [
          { name: 'IDX_webhook_event_available', columnNames: ['available_at', 'id'] },
          { name: 'UQ_webhook_event_subject', columnNames: ['subject_id', 'sequence'], isUnique: true },
        ],
      }),
    );

    await runner.createTable(
      new Table({
        name: 'webhook_attempt',
        columns: [
          c.serial('id'),
          c.id('event_id'),
          { name: 'n', type: 'int' },
          c.text('url', 2048),
          { name: 'status_code', type: 'int', isNullable: true },
          { name: 'duration_ms', type: 'int' },
          c.exact('error', 24, { isNullable: true }),
          c.text('body', 512, { isNullable: true }),
          c.time('at'),
        ],
        indices: [
          { name: 'IDX_webhook_attempt_event', columnNames: ['event_id', 'id'] },
          { name: 'IDX_webhook_attempt_at', columnNames: ['at'] },
        ],
      }),
    );

    // a plain ALTER: TypeORM would rebuild the whole SQLite table (and MariaDB adds a last column in place)
    await runner.query('ALTER TABLE message_out ADD COLUMN event_sequence INT NOT NULL DEFAULT 0');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE message_out DROP COLUMN event_sequence');
    for (const table of ['webhook_attempt', 'webhook_event', 'account_webhook']) await runner.dropTable(table, true);
  }
}
