import { DataSource } from 'typeorm';
import { Database } from './database.js';

describe('Database before shutdown', () => {
  let dataSource: DataSource;
  let database: Database;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    database = new Database(dataSource);
  });

  afterEach(() => dataSource.destroy());

  const turns = async (count: number) => {
    for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('waits for the units in flight, so that the connection closes only after they finish', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.transaction(async (sql) => {
      await held;
      return sql.get<{ one: number }>('SELECT 1 AS one');
    });
    const read = database.run((sql) => sql.get<{ two: number }>('SELECT 2 AS two'));
    let closed = false;
    const shutdown = database.beforeApplicationShutdown().then(() => (closed = true));

    await turns(5);
    expect(closed).toBe(false);
    release();

    await expect(transaction).resolves.toEqual({ one: 1 });
    await expect(read).resolves.toEqual({ two: 2 });
    await shutdown;
    expect(closed).toBe(true);
  });

  it('waits for a unit that fails too', async () => {
    let fail!: (error: Error) => void;
    const failing = database.transaction(() => new Promise((_, reject) => (fail = reject)));
    failing.catch(() => undefined);
    let closed = false;
    const shutdown = database.beforeApplicationShutdown().then(() => (closed = true));

    await turns(5);
    expect(closed).toBe(false);
    fail(new Error('gone'));

    await expect(failing).rejects.toThrow('gone');
    await shutdown;
  });

  it('returns at once when nothing is in flight', async () => {
    await database.run((sql) => sql.get('SELECT 1'));
    await expect(database.beforeApplicationShutdown()).resolves.toBeUndefined();
  });
});
