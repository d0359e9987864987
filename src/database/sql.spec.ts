import type { EntityManager } from 'typeorm';
import { readTime, Sql, toSqliteTime } from './sql.js';
import type { Statement, Statements } from './statements.js';

describe('toSqliteTime', () => {
  const iso = (date: Date) => date.toISOString().slice(0, 23).replace('T', ' ');

  it('writes UTC with milliseconds, as toISOString does', () => {
    expect(toSqliteTime(new Date('2026-11-23T08:05:09.007Z'))).toBe('2026-11-23 08:05:09.007');
    expect(toSqliteTime(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31 23:59:59.999');
    expect(toSqliteTime(new Date(0))).toBe('1970-01-01 00:00:00.000');
    expect(toSqliteTime(new Date(-1))).toBe('1969-12-31 23:59:59.999');
  });

  it('agrees with toISOString on times spread over a century, in any order', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5_000; i++) {
      const date = new Date(Math.floor(random() * 3e12) - 5e11);
      expect(toSqliteTime(date)).toBe(iso(date));
    }
  });

  it('reads back what it wrote', () => {
    const date = new Date('2027-03-01T00:00:00.001Z');
    expect(readTime(toSqliteTime(date)).getTime()).toBe(date.getTime());
  });
});

describe('Sql on MySQL', () => {
  /** Statements that note each round trip (the statements sent together) and answer a read with one row. */
  const roundTrips = (batches: boolean) => {
    const sent: string[][] = [];
    const answer = (statements: Statement[]) => {
      sent.push(statements.map((statement) => statement.query));
      return statements.map((statement) => (statement.query.startsWith('SELECT') ? [{ balance: 750 }] : []));
    };
    const statements: Statements = {
      batches,
      all: (query, params, before) => answer([...before, { query, params }]).at(-1)!,
      allEach: (reads, before) => {
        if (batches) return answer([...before, ...reads]).slice(before.length);
        return [...before, ...reads].map((statement) => answer([statement])[0]!).slice(before.length);
      },
      write: (query, params, before) => (answer([...before, { query, params }]), { changes: 1, insertId: 0, duplicates: null }),
    };
    return { sent, sql: new Sql('mysql', statements, {} as EntityManager) };
  };

  it('sends a read wanted at the commit with the waiting writes and the commit, in one round trip, and has its rows once committed', async () => {
    const { sent, sql } = roundTrips(true);
    await sql.begin();
    await sql.later('UPDATE account SET balance = balance - ? WHERE id = ?', [250, 'a']);
    const read = await sql.readAtCommit<{ balance: number }>('SELECT balance FROM account WHERE id = ?', ['a']);
    expect(read.rows).toEqual([]);

    await sql.commit();

    expect(sent).toEqual([['START TRANSACTION', 'UPDATE account SET balance = balance - ? WHERE id = ?', 'SELECT balance FROM account WHERE id = ?', 'COMMIT']]);
    expect(read.rows).toEqual([{ balance: 750 }]);
  });

  it('sends a read wanted after the commit just after it, in the same round trip', async () => {
    const { sent, sql } = roundTrips(true);
    await sql.begin();
    await sql.later("UPDATE message_out SET status = 'sent' WHERE uniq_id = ?", ['m']);
    const after = await sql.readAfterCommit('SELECT 1 AS found FROM delivery_receipt WHERE provider_id IN (?)', ['p']);
    const at = await sql.readAtCommit('SELECT balance FROM account WHERE id = ?', ['a']);

    await sql.commit();

    expect(sent).toEqual([
      [
        'START TRANSACTION',
        "UPDATE message_out SET status = 'sent' WHERE uniq_id = ?",
        'SELECT balance FROM account WHERE id = ?',
        'COMMIT',
        'SELECT 1 AS found FROM delivery_receipt WHERE provider_id IN (?)',
      ],
    ]);
    expect([at.rows, after.rows]).toEqual([[{ balance: 750 }], [{ balance: 750 }]]);
  });

  it('on a Galera node, sends the read and then the commit, one statement a round trip', async () => {
    const { sent, sql } = roundTrips(false);
    await sql.begin();
    const read = await sql.readAtCommit<{ balance: number }>('SELECT balance FROM account WHERE id = ?', ['a']);

    await sql.commit();

    expect(sent).toEqual([['START TRANSACTION'], ['SELECT balance FROM account WHERE id = ?'], ['COMMIT']]);
    expect(read.rows).toEqual([{ balance: 750 }]);
  });

  it('forgets a read wanted at the commit when the unit is rolled back', async () => {
    const { sent, sql } = roundTrips(true);
    await sql.begin();
    const read = await sql.readAtCommit('SELECT balance FROM account WHERE id = ?', ['a']);
    sql.discard();
    await sql.begin();

    await sql.commit();

    expect(sent).toEqual([]);
    expect(read.rows).toEqual([]);
  });
});
