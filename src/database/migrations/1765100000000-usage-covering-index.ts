import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The account's messages in key order also carry what GET /v1/metrics counts
 * (creation time, status, segments, amount), so that a year of messages is
 * counted from this index alone, without reading each message's row. The
 * list's unfiltered pages read the same index in the same order.
 */
export class UsageCoveringIndex1765100000000 implements MigrationInterface {
  name = 'UsageCoveringIndex1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    await this.replace(runner, ['account_id', 'is_test', 'uniq_id', 'created_at', 'status', 'page', 'amount']);
  }

  async down(runner: QueryRunner): Promise<void> {
    await this.replace(runner, ['account_id', 'is_test', 'uniq_id']);
  }

  private async replace(runner: QueryRunner, columnNames: string[]): Promise<void> {
    await runner.dropIndex('message_out', 'IDX_message_out_account_id');
    await runner.createIndex('message_out', new TableIndex({ name: 'IDX_message_out_account_id', columnNames }));
  }
}
