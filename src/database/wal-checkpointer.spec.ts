import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/database.config.js';
import { Database, sqliteConnectionOf } from './database.js';
import { MAX_FRAMES, WalCheckpointer } from './wal-checkpointer.js';

describe(WalCheckpointer.name, () => {
  let directory: string;
  let path: string;
  let dataSource: DataSource;
  let database: Database;
  let checkpointer: WalCheckpointer;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    path = join(directory, 'db.sqlite');
    dataSource = await new DataSource({ type: 'better-sqlite3', database: path, enableWAL: true }).initialize();
    await dataSource.query('CREATE TABLE item (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    database = new Database(dataSource);
    checkpointer = new WalCheckpointer(dataSource, database, { type: 'sqlite', path } as DatabaseConfig);
  });

  afterEach(async () => {
    await checkpointer.beforeApplicationShutdown();
    if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  const connection = () => sqliteConnectionOf(dataSource);
  const automaticCheckpointPages = () => connection().pragma('wal_autocheckpoint', { simple: true });
  /** Rows found in the database file alone: what checkpoints have copied there. */
  const rowsInDatabaseFile = () => {
    const copy = join(directory, 'copy.sqlite');
    copyFileSync(path, copy);
    const reader = new Sqlite(copy, { readonly: true });
    try {
      const table = reader.prepare("SELECT name FROM sqlite_master WHERE name = 'item'").get();
      return table ? reader.prepare('SELECT COUNT(*) FROM item').pluck().get() : 0;
    } finally {
      reader.close();
    }
  };
  const insert = (count: number) => {
    const statement = connection().prepare('INSERT INTO item (text) VALUES (?)');
    connection().transaction(() => {
      for (let i = 0; i < count; i++) statement.run(`item ${i}`);
    })();
  };
  const until = async (condition: () => boolean) => {
    for (let tries = 0; tries < 100 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    return condition();
  };

  it('copies what is committed into the database file on its own thread, with automatic checkpoints off', async () => {
    checkpointer.onApplicationBootstrap();
    expect(automaticCheckpointPages()).toBe(0);

    insert(500);

    expect(await until(() => rowsInDatabaseFile() === 500)).toBe(true);
  });

  it('starts a log its passive checkpoints cannot copy whole over, past its limit, with the units paused meanwhile', async () => {
    // a reader of the empty table keeps every frame written after it from being copied
    const reader = new Sqlite(path);
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT COUNT(*) FROM item').get();
    const statement = connection().prepare('INSERT INTO item (text) VALUES (?)');
    const page = 'x'.repeat(4_000);
    const rows = Math.ceil(MAX_FRAMES * 1.1);
    connection().transaction(() => {
      for (let i = 0; i < rows; i++) statement.run(page);
    })();
    const pauses: string[] = [];
    const pauseUnits = database.pauseUnits.bind(database);
    database.pauseUnits = async () => {
      const resume = await pauseUnits();
      pauses.push('paused');
      reader.prepare('COMMIT').run();
      return () => {
        pauses.push('resumed');
        resume();
      };
    };

    try {
      checkpointer.onApplicationBootstrap();
      expect(await until(() => pauses.length === 2)).toBe(true);
    } finally {
      reader.close();
    }
    await database.transaction(async (sql) => sql.run('INSERT INTO item (text) VALUES (?)', ['after']));
    const [{ log }] = connection().pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    expect(log).toBeLessThan(100);
    expect(rowsInDatabaseFile()).toBe(rows + 1);
  }, 60_000);

  it('hands checkpoints back to SQLite once stopped', async () => {
    checkpointer.onApplicationBootstrap();
    await checkpointer.beforeApplicationShutdown();

    expect(automaticCheckpointPages()).toBe(1000);
    insert(10);
    await dataSource.destroy();
    expect(rowsInDatabaseFile()).toBe(10);
  });

  it('leaves an in-memory database alone', async () => {
    const memory = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    const idle = new WalCheckpointer(memory, new Database(memory), { type: 'sqlite', path: ':memory:' } as DatabaseConfig);
    idle.onApplicationBootstrap();
    expect(sqliteConnectionOf(memory).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await idle.beforeApplicationShutdown();
    await memory.destroy();
  });
});
