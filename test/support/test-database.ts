import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

let created = 0;

/**
 * A database of its own for one app under test: a temporary SQLite file, or,
 * with DB_TYPE=mysql, a fresh MySQL database next to DB_NAME (the CI user may
 * create `<DB_NAME>_*`).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'messaging-e2e-'));
  const cleanDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (process.env.DB_TYPE !== 'mysql') {
    return { env: { DB_TYPE: 'sqlite', DB_PATH: join(dataDir, 'messaging.sqlite'), DATA_DIR: dataDir }, drop: async () => cleanDir() };
  }

  const name = `${process.env.DB_NAME ?? 'app'}_e2e_${process.pid}_${++created}`;
  const admin = () =>
    createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER,
      password: process.env.DB_PASSWORD,
    });
  const connection = await admin();
  await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
  return {
    env: { DB_TYPE: 'mysql', DB_NAME: name, DATA_DIR: dataDir },
    drop: async () => {
      const cleanup = await admin();
      await cleanup.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await cleanup.end();
      cleanDir();
    },
  };
}
