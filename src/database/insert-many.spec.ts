import { DataSource } from 'typeorm';
import { Database } from './database.js';

describe('Sql.insertManyLater', () => {
  let dataSource: DataSource;
  let database: Database;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    database = new Database(dataSource);
    await database.run((sql) => sql.run('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, flag INTEGER NOT NULL, at TEXT, note TEXT)'));
  });

  afterEach(() => dataSource.destroy());

  const rows = (count: number, from = 0) =>
    Array.from({ length: count }, (_, index) => ({
      id: from + index,
      name: `item ${from + index}`,
      flag: (from + index) % 2 === 0,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, from + index)),
      note: undefined,
    }));

  it('writes every row of a list cut into statements of powers of two, each value bound in its own column', async () => {
    // 1,000 rows of 5 columns: statements of 512, 256, 128, 64, 32 and 8 rows
    await database.transaction((sql) => sql.insertManyLater('item', rows(1000)));
    const written = await database.run((sql) =>
      sql.all<{ id: number; name: string; flag: number; at: string; note: string | null }>('SELECT * FROM item ORDER BY id'),
    );
    expect(written).toHaveLength(1000);
    expect(written[0]).toEqual({ id: 0, name: 'item 0', flag: 1, at: '2026-01-01 00:00:00.000', note: null });
    expect(written[999]).toEqual({ id: 999, name: 'item 999', flag: 0, at: '2026-01-01 00:16:39.000', note: null });
    expect(written.every((row, index) => row.id === index && row.name === `item ${index}`)).toBe(true);
  });

  it('reuses its statements for lists of other lengths and keeps their rows apart', async () => {
    await database.transaction((sql) => sql.insertManyLater('item', rows(3)));
    await database.transaction((sql) => sql.insertManyLater('item', rows(5, 3)));
    const ids = await database.run((sql) => sql.all<{ id: number }>('SELECT id FROM item ORDER BY id'));
    expect(ids.map((row) => row.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('fails the unit of work, leaving nothing, when one row of a later statement is refused', async () => {
    const clashing = [...rows(10), { ...rows(1)[0]!, name: 'again' }];
    await expect(database.transaction((sql) => sql.insertManyLater('item', clashing))).rejects.toThrow(/UNIQUE/);
    expect(await database.run((sql) => sql.all('SELECT id FROM item'))).toEqual([]);
  });
});
