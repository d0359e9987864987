import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The balance as `/v1/balance` shows it (SPEC-2 §1.6): the account's currency
 * and low-balance threshold, with the flag that lets `balance.low` fire once
 * per crossing; ledger rows that say what they were for and the balance they
 * left. The list filters of `/v1/balance/transactions` each have an index
 * that keeps newest-first order (the ledger's id).
 */
export class BalanceAlert1764700000000 implements MigrationInterface {
  name = 'BalanceAlert1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    const mysql = runner.connection.driver.options.type === 'mysql';
    const ascii = (type: string) => (mysql ? `${type} CHARACTER SET ascii COLLATE ascii_bin` : type);
    for (const column of [
      `currency ${ascii('VARCHAR(3)')} NOT NULL DEFAULT 'XOF'`,
      'low_balance_threshold BIGINT NULL',
      'low_balance_armed BOOLEAN NOT NULL DEFAULT 0',
    ]) {
      await runner.query(`ALTER TABLE account ADD COLUMN ${column}`);
    }
    for (const column of [
      'balance_after BIGINT NOT NULL DEFAULT 0',
      `reference_type ${ascii('VARCHAR(12)')} NULL`,
      `lot ${ascii('VARCHAR(64)')} NULL`,
      `created_by ${ascii(mysql ? 'CHAR(36)' : 'VARCHAR(36)')} NULL`,
    ]) {
      await runner.query(`ALTER TABLE ledger_entry ADD COLUMN ${column}`);
    }
    await this.fillExistingRows(runner, mysql);
    await runner.createIndices('ledger_entry', [
      new TableIndex({ name: 'IDX_ledger_entry_account_kind', columnNames: ['account_id', 'kind', 'id'] }),
      new TableIndex({ name: 'IDX_ledger_entry_account_reference', columnNames: ['account_id', 'reference', 'id'] }),
    ]);
  }

  /** Rows written before: the running sum of their account's ledger, and what they were for (an OTP's id names an `otp` row). */
  private async fillExistingRows(runner: QueryRunner, mysql: boolean): Promise<void> {
    const runningSum = 'SELECT id, SUM(amount) OVER (PARTITION BY account_id ORDER BY id) AS after FROM ledger_entry';
    await runner.query(
      mysql
        ? `UPDATE ledger_entry l JOIN (${runningSum}) s ON s.id = l.id SET l.balance_after = s.after`
        : `UPDATE ledger_entry SET balance_after = s.after FROM (${runningSum}) s WHERE s.id = ledger_entry.id`,
    );
    await runner.query(
      `UPDATE ledger_entry SET reference_type = CASE
         WHEN kind IN ('opening', 'credit') THEN 'admin'
         WHEN EXISTS (SELECT 1 FROM otp WHERE otp.uniq_id = ledger_entry.reference) THEN 'otp'
         ELSE 'sms' END`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const index of ['IDX_ledger_entry_account_kind', 'IDX_ledger_entry_account_reference']) await runner.dropIndex('ledger_entry', index);
    for (const column of ['balance_after', 'reference_type', 'lot', 'created_by']) await runner.query(`ALTER TABLE ledger_entry DROP COLUMN ${column}`);
    for (const column of ['currency', 'low_balance_threshold', 'low_balance_armed']) await runner.query(`ALTER TABLE account DROP COLUMN ${column}`);
  }
}
