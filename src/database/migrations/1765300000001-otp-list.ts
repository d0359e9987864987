import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** `GET /v1/otp`: the OTPs of an account and key mode, newest first, read from an index ending in the time-ordered id. */
export class OtpList1765300000001 implements MigrationInterface {
  name = 'OtpList1765300000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createIndex('otp', new TableIndex({ name: 'IDX_otp_account_mode_id', columnNames: ['account_id', 'is_test', 'uniq_id'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('otp', 'IDX_otp_account_mode_id');
  }
}
