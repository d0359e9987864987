import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Named in the error the database raises for an overdraft, which is how it is recognised (see `isOverdraft`). */
export const BALANCE_CONSTRAINT = 'CHK_account_balance';

/**
 * The database itself refuses a negative balance. A send's debit is then a
 * plain write that travels with the commit, and an overdraft fails the whole
 * transaction, instead of a conditional debit whose answer costs a round trip.
 * SQLite cannot add a check to an existing table: triggers do the same there.
 */
export class BalanceNeverNegative1764028800000 implements MigrationInterface {
  name = 'BalanceNeverNegative1764028800000';

  async up(runner: QueryRunner): Promise<void> {
    if (runner.connection.options.type === 'mysql') {
      await runner.query(`ALTER TABLE account ADD CONSTRAINT ${BALANCE_CONSTRAINT} CHECK (balance >= 0)`);
      return;
    }
    for (const event of ['INSERT', 'UPDATE OF balance']) {
      await runner.query(
        `CREATE TRIGGER ${triggerName(event)} BEFORE ${event} ON account WHEN NEW.balance < 0
         BEGIN SELECT RAISE(ABORT, '${BALANCE_CONSTRAINT}'); END`,
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    if (runner.connection.options.type === 'mysql') {
      await runner.query(`ALTER TABLE account DROP CONSTRAINT ${BALANCE_CONSTRAINT}`);
      return;
    }
    for (const event of ['INSERT', 'UPDATE OF balance']) await runner.query(`DROP TRIGGER ${triggerName(event)}`);
  }
}

const triggerName = (event: string) => `account_balance_never_negative_on_${event.split(' ')[0]!.toLowerCase()}`;
