import Sqlite from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';

/** Rows read from a spawned server's database (SQLite file or MariaDB database), from outside the server; none for a write. */
export async function queryServerDatabase(env: Record<string, string>, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (env.DB_TYPE === 'mysql') {
    const connection = await createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER,
      password: process.env.DB_PASSWORD,
      database: env.DB_NAME,
    });
    try {
      // on a Galera node: read what every node committed before (the server does the same); elsewhere ignored
      await connection.query('SET SESSION wsrep_sync_wait = 1').catch(() => undefined);
      const [rows] = await connection.query(sql, params);
      return rows as Record<string, unknown>[];
    } finally {
      await connection.end();
    }
  }
  const db = new Sqlite(env.DB_PATH, { fileMustExist: true, timeout: 5000 });
  try {
    const statement = db.prepare(sql);
    if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
    statement.run(...params);
    return [];
  } finally {
    db.close();
  }
}
