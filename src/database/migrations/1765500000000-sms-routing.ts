import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnsFor } from '../schema-columns.js';

/**
 * Several SMS connections. Each submit of a message to a connector and what
 * became of it (`message_attempt`, read by the operator per message); the
 * connectors the operator drained, which every instance reads; stored HLR
 * answers looked up by number for routes that match on the network. The single
 * connection of `SMPP_URL` is now the connector `default`: the parts and kept
 * receipts recorded under `smpp` move to it, so that receipts for messages
 * sent before still find them.
 */
export class SmsRouting1765500000000 implements MigrationInterface {
  name = 'SmsRouting1765500000000';

  async up(runner: QueryRunner): Promise<void> {
    const c = columnsFor(runner);
    await runner.createTable(
      new Table({
        name: 'message_attempt',
        columns: [
          c.serial('id'),
          c.id('uniq_id'),
          c.exact('connector', 16),
          c.exact('outcome', 12),
          c.time('at'),
        ],
        indices: [{ name: 'IDX_message_attempt_uniq_id', columnNames: ['uniq_id', 'id'] }],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'sms_connector_drain',
        withoutRowid: true,
        columns: [c.exact('connector', 16, { isPrimary: true }), c.time('drained_at')],
      }),
    );
    await runner.createIndex('hlr_lookup', new TableIndex({ name: 'IDX_hlr_lookup_number_done', columnNames: ['number', 'done_at'] }));
    await runner.query("UPDATE message_part SET provider = 'default' WHERE provider = 'smpp'");
    await runner.query("UPDATE delivery_receipt SET provider = 'default' WHERE provider = 'smpp'");
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query("UPDATE delivery_receipt SET provider = 'smpp' WHERE provider = 'default'");
    await runner.query("UPDATE message_part SET provider = 'smpp' WHERE provider = 'default'");
    await runner.dropIndex('hlr_lookup', 'IDX_hlr_lookup_number_done');
    await runner.dropTable('sms_connector_drain', true);
    await runner.dropTable('message_attempt', true);
  }
}
