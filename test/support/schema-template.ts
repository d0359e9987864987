import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../src/config/database.config.js';
import type { DatabaseHost } from '../../src/config/database.config.js';
import { dataSourceOptions } from '../../src/database/data-source.options.js';

/**
 * The migrated schema, made once per version of the migrations and kept in the temporary directory, so that each
 * database under test starts from it instead of running every migration again (a second of DDL on MariaDB). The
 * application's own migration run then finds nothing to do; first-run.e2e-spec migrates an empty database.
 */

const DATABASE_SOURCES = join(process.cwd(), 'src/database');

const keys = new Map<string, string>();

/** Changes with the migrations and with what they import from beside them; read once per spec file and server. */
function schemaKey(server: string): string {
  let key = keys.get(server);
  if (key) return key;
  const hash = createHash('sha256').update(server);
  for (const directory of [DATABASE_SOURCES, join(DATABASE_SOURCES, 'migrations')]) {
    for (const file of readdirSync(directory)
      .filter((name) => name.endsWith('.ts'))
      .sort()) {
      hash.update(file).update(readFileSync(join(directory, file)));
    }
  }
  key = hash.digest('hex').slice(0, 16);
  keys.set(server, key);
  return key;
}

async function migrate(config: DatabaseConfig): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptions(config)).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

const NO_SERVER = { hosts: [], user: null, password: null, name: '', poolSize: 1 };

/** A SQLite file with the migrated schema, to be copied: one file, its write-ahead log folded in. */
export async function sqliteSchema(): Promise<string> {
  const path = join(tmpdir(), `messaging-e2e-schema-${schemaKey('sqlite')}.sqlite`);
  if (existsSync(path)) return path;
  const building = `${path}.${process.pid}`;
  await migrate({ ...NO_SERVER, type: 'sqlite', path: building });
  const db = new Sqlite(building);
  db.pragma('journal_mode = DELETE');
  db.close();
  renameSync(building, path);
  return path;
}

/** The statements that give an empty MySQL database (the current one) the migrated schema and its rows. */
export async function mysqlSchema(
  admin: Connection,
  server: { hosts: DatabaseHost[]; user: string | null; password: string | null },
): Promise<string> {
  const [[{ version }]] = await admin.query<RowDataPacket[]>('SELECT VERSION() AS version');
  const path = join(tmpdir(), `messaging-e2e-schema-${schemaKey(`mysql ${version}`)}.sql`);
  if (existsSync(path)) return readFileSync(path, 'utf8');

  const scratch = `${process.env.DB_NAME ?? 'app'}_e2e_schema_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS \`${scratch}\``);
  await admin.query(`CREATE DATABASE \`${scratch}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  try {
    await migrate({ ...server, type: 'mysql', path: '', name: scratch, poolSize: 1 });
    const script = await dump(admin, scratch);
    // written under another name first, so that another worker never reads half of it
    writeFileSync(`${path}.${process.pid}`, script);
    renameSync(`${path}.${process.pid}`, path);
    return script;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS \`${scratch}\``);
  }
}

async function dump(admin: Connection, database: string): Promise<string> {
  const [tables] = await admin.query<RowDataPacket[]>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
    [database],
  );
  // tables in name order, a foreign key before the table it names
  const statements = ['SET FOREIGN_KEY_CHECKS = 0'];
  for (const { name } of tables) {
    const [[created]] = await admin.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${database}\`.\`${name}\``);
    statements.push(created['Create Table'] as string);
    // as stored, not as dates of this process's time zone
    const [rows] = await admin.query<RowDataPacket[]>({ sql: `SELECT * FROM \`${database}\`.\`${name}\``, dateStrings: true });
    if (rows.length > 0) statements.push(admin.format(`INSERT INTO \`${name}\` VALUES ?`, [rows.map((row) => Object.values(row))]));
  }
  statements.push('SET FOREIGN_KEY_CHECKS = 1');
  return `${statements.join(';\n')};`;
}
