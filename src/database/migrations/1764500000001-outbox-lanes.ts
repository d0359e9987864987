import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The outbox in two lanes, each claimed by a dispatcher of its own: the
 * messages of bulk sends and campaigns (`bulk`), and the others (OTPs), which
 * are never queued behind a lot of thousands. The claim index leads with the
 * lane, and replaces the one that did not.
 */
export class OutboxLanes1764500000001 implements MigrationInterface {
  name = 'OutboxLanes1764500000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE outbox ADD COLUMN bulk BOOLEAN NOT NULL DEFAULT 0');
    await runner.createIndex('outbox', new TableIndex({ name: 'IDX_outbox_lane', columnNames: ['bulk', 'available_at', 'id'] }));
    await runner.dropIndex('outbox', 'IDX_outbox_available');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.createIndex('outbox', new TableIndex({ name: 'IDX_outbox_available', columnNames: ['available_at', 'id'] }));
    await runner.dropIndex('outbox', 'IDX_outbox_lane');
    await runner.query('ALTER TABLE outbox DROP COLUMN bulk');
  }
}
