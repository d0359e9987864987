import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/database.config.js';
import { Database } from './database.js';
import { ReportReads } from './report-reads.js';

describe(ReportReads.name, () => {
  let directory: string;
  let dataSource: DataSource;
  let reads: ReportReads;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'report-reads-'));
    const path = join(directory, 'db.sqlite');
    dataSource = await new DataSource({ type: 'better-sqlite3', database: path, enableWAL: true }).initialize();
    await dataSource.query('CREATE TABLE event (id INTEGER PRIMARY KEY, done INTEGER NOT NULL, at TEXT NOT NULL)');
    reads = new ReportReads(new Database(dataSource), { type: 'sqlite', path } as DatabaseConfig);
  });

  afterEach(async () => {
    await reads.beforeApplicationShutdown();
    await dataSource.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads what the serving connection committed, its parameters bound as that connection binds them', async () => {
    await dataSource.query("INSERT INTO event (done, at) VALUES (1, '2026-03-01 10:00:00.000'), (0, '2026-03-01 11:00:00.000'), (1, '2026-03-02 09:00:00.000')");

    const rows = await reads.all<{ count: number }>('SELECT COUNT(*) AS count FROM event WHERE done = ? AND at < ?', [true, new Date('2026-03-02T00:00:00Z')]);

    expect(rows).toEqual([{ count: 1 }]);
  });

  it('runs on a thread of its own: the event loop goes on while a long read runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const rows = await reads.all<{ n: number }>('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT COUNT(*) AS n FROM c', []);
    clearInterval(timer);

    expect(rows).toEqual([{ n: 3_000_000 }]);
    // run on this thread, the read would have answered before any timer could fire
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses what it cannot run, and writes', async () => {
    await expect(reads.all('SELECT * FROM missing', [])).rejects.toThrow('report query failed: no such table: missing');
    await expect(reads.all("INSERT INTO event (done, at) VALUES (1, 'x') RETURNING id", [])).rejects.toThrow(/readonly/);
  });
});
