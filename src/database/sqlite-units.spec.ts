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

  const insert = (v: number, urgent = false) => units.run(async () => connection.prepare('INSERT INTO t (v) VALUES (?)').run(v), true, urgent);
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
    }, true, false);

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
    }, true, false);
    const next = units.run(async () => void order.push('next'), true, false);

    await Promise.all([slow, next]);

    expect(order).toEqual(['slow', 'event loop', 'next']);
    expect(commits).toBe(2);
  });

  it('runs an urgent unit before the others waiting', async () => {
    const order: number[] = [];
    const track = (v: number, urgent: boolean) => units.run(async () => void order.push(v), true, urgent);

    await Promise.all([track(1, false), track(2, false), track(3, true), track(4, false), track(5, true)]);

    expect(order).toEqual([3, 5, 1, 2, 4]);
  });

  it('still takes one other unit into each batch while urgent ones keep it full', async () => {
    const order: string[] = [];
    const urgent = (label: string) => units.run(async () => void (busy(8), order.push(label)), true, true);
    const ordinary = (label: string) => units.run(async () => void order.push(label), true, false);

    await Promise.all([ordinary('a'), ordinary('b'), ...['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map(urgent)]);

    expect(order[0]).toBe('u1');
    expect(order.indexOf('a')).toBeLessThan(order.indexOf('u6'));
    expect(order.indexOf('b')).toBeGreaterThan(order.indexOf('a'));
  });

  it('pauses once the batch in progress has committed, begins none until resumed, and runs those that waited then', async () => {
    const order: string[] = [];
    const running = units.run(async () => {
      await new Promise(setImmediate);
      order.push('in progress');
    }, true, false);
    await new Promise(setImmediate);

    const resume = await units.pause();
    order.push('paused');
    const waiting = insert(7, true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(values()).toEqual([]);

    resume();
    await Promise.all([running, waiting]);
    expect(order).toEqual(['in progress', 'paused']);
    expect(values()).toEqual([7]);
    expect(connection.inTransaction).toBe(false);
  });
});
