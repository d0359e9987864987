import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { parseHosts } from '../../src/config/database.config.js';
import { mysqlSchema, sqliteSchema } from './schema-template.js';

export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

let created = 0;

/**
 * A database of its own for one app under test, already migrated (see
 * schema-template.ts): a temporary SQLite file, or, with DB_TYPE=mysql, a
 * fresh MySQL database next to DB_NAME (the CI user may create `<DB_NAME>_*`).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'messaging-e2e-'));
  const cleanDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (process.env.DB_TYPE !== 'mysql') {
    const path = join(dataDir, 'messaging.sqlite');
    copyFileSync(await sqliteSchema(), path);
    return { env: { DB_TYPE: 'sqlite', DB_PATH: path, DATA_DIR: dataDir }, drop: async () => cleanDir() };
  }

  const name = `${process.env.DB_NAME ?? 'app'}_e2e_${process.pid}_${++created}`;
  const connection = await admin();
  const schema = await mysqlSchema(connection, { hosts: servers(), user: process.env.DB_USER ?? null, password: process.env.DB_PASSWORD ?? null });
  await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.query(`USE \`${name}\`; ${schema}`);
  await connection.end();
  return {
    env: { DB_TYPE: 'mysql', DB_NAME: name, DATA_DIR: dataDir },
    drop: async () => {
      cleanDir();
      const cleanup = await admin();
      await cleanup.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await cleanup.end();
    },
  };
}

/** The first server of DB_HOSTS that answers (on a cluster, any node creates and drops a database), else DB_HOST:DB_PORT. */
async function admin(): Promise<Connection> {
  let failure: unknown;
  for (const server of servers()) {
    try {
      return await createConnection({ ...server, user: process.env.DB_USER, password: process.env.DB_PASSWORD, multipleStatements: true });
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

const servers = () =>
  process.env.DB_HOSTS ? parseHosts(process.env.DB_HOSTS) : [{ host: process.env.DB_HOST ?? '127.0.0.1', port: Number(process.env.DB_PORT ?? 3306) }];
