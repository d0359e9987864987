import Sqlite from 'better-sqlite3';
import type { Sql } from './sql.js';
import { SqliteUnits } from './sqlite-units.js';

describe('SqliteUnits', () => {
  let connection: Sqlite.Database;
  let units: SqliteUnits;
  let commits: number;

  beforeEach(() => {
    connection = new Sqlite(':memory:');
    connection.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const exec = connection.exec.bind(connection);
    commits = 0;
    connection.exec = (source: string) => {
      if (source === 'COMMIT') commits++;
      return exec(source);
    };
    units = new SqliteUnits(
      () => connection,
      () => ({}) as Sql,
    );
  });

  afterEach(() => connection.close());

  const insert = (v: number) => units.run(async () => connection.prepare('INSERT INTO t (v) VALUES (?)').run(v), true);
  const values = () => connection.prepare('SELECT v FROM t ORDER BY v').pluck().all();
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('commits the units waiting together in one transaction, and answers each once it has committed', async () => {
    await Promise.all([insert(1), insert(2), insert(3)]);

    expect(commits).toBe(1);
    expect(values()).toEqual([1, 2, 3]);
  });

  it('rolls back an atomic unit that fails alone, and commits the others of its batch', async () => {
    const failing = units.run(async () => {
      connection.prepare('INSERT INTO t (v) VALUES (?)').run(2);
      throw new Error('refused');
    }, true);

    await expect(Promise.all([insert(1), failing, insert(3)])).rejects.toThrow('refused');
    await insert(4);

    expect(values()).toEqual([1, 3, 4]);
  });

  it('takes no more units into a batch once it has run 20 ms, and lets the event loop turn before the next', async () => {
    const order: string[] = [];
    const slow = units.run(async () => {
      busy(25);
      setImmediate(() => order.push('event loop'));
      order.push('slow');
    }, true);
    const next = units.run(async () => void order.push('next'), true);

    await Promise.all([slow, next]);

    expect(order).toEqual(['slow', 'event loop', 'next']);
    expect(commits).toBe(2);
  });
});
