// Fills the service's database with old OTPs and messages, with bulk SQL (not through the API).
import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { recipientNumber } from './load.mjs';

const BATCH = 1000;
const DAY_MS = 86_400_000;

/** `count` OTPs, each with its SMS record and its recipient row, created over the last 30 days. */
export async function fill(env, accountId, count) {
  const db = await bulkWriter(env);
  const now = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const created = new Date(now - 30 * DAY_MS + Math.floor((i / count) * 29 * DAY_MS));
      rows.push(columns({ id: uuidv7({ msecs: created.getTime() }), lot: ulid(created.getTime()), to: recipientNumber(50_000_000 + i), created }, accountId, db.time));
    }
    await db.insert([
      [OTP, rows.map((row) => row.otp)],
      [MESSAGE, rows.map((row) => row.message)],
      [RECIPIENT, rows.map((row) => row.recipient)],
    ]);
  }
  // a bulk load leaves work behind that rows arriving one by one never pile up
  await db.settle();
  await db.close();
  return { otps: count, messages: count };
}

function columns(row, accountId, time) {
  const expires = new Date(row.created.getTime() + 300_000);
  return {
    otp: [row.id, accountId, row.to, 'SMS', randomBytes(32).toString('hex'), 'verified', 0, time(expires), 'fr', row.lot, accountId, 0, time(row.created)],
    message: [row.id, accountId, 'otp', row.lot, row.to, 'Votre code est ******', 1, 'GSM7', 250, time(row.created), 'delivered', 'api', 0, accountId, 0, 0, time(row.created)],
    recipient: [accountId, row.to, row.id, time(row.created)],
  };
}

const OTP = 'INSERT INTO otp (uniq_id, account_id, recipient, channel, code_hash, status, attempts, expires_at, language, lot, created_by, is_test, created_at)';
const MESSAGE =
  'INSERT INTO message_out (uniq_id, account_id, type, lot, recipient, message, page, message_encoding, amount, send_at, status, source, dlr_number_retry, created_by, retrieve, is_test, created_at)';
const RECIPIENT = 'INSERT INTO otp_recipient (account_id, recipient, latest_otp_id, created_at)';
const placeholders = (n) => `(${Array(n).fill('?').join(', ')})`;

/**
 * Bulk inserts into the service's database: `insert([[statement, rows], …])` writes each statement's rows (arrays
 * of values, in the order of its column list) in one transaction; `time` formats a Date as the database stores it;
 * `settle` waits until the load's work is written back, and on MariaDB refreshes the statistics of `analyze`'s tables.
 */
export async function bulkWriter(env, { analyze = [] } = {}) {
  return env.DB_TYPE === 'mysql' ? mysqlWriter(env, analyze) : sqliteWriter(env);
}

async function sqliteWriter(env) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(env.DB_PATH);
  db.pragma('busy_timeout = 10000');
  const prepared = new Map();
  const statement = (text, width) => {
    if (!prepared.has(text)) prepared.set(text, db.prepare(`${text} VALUES ${placeholders(width)}`));
    return prepared.get(text);
  };
  const insert = db.transaction((tables) => {
    for (const [text, rows] of tables) for (const row of rows) statement(text, row.length).run(...row);
  });
  return {
    time: (date) => date.toISOString().slice(0, 23).replace('T', ' '),
    insert: async (tables) => insert(tables),
    settle: async () => db.pragma('wal_checkpoint(TRUNCATE)'),
    close: async () => db.close(),
  };
}

/** A connection to the service's SQLite database, with the service's own connection settings. */
export async function sqliteConnection(env) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(env.DB_PATH);
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -8192');
  db.pragma('temp_store = MEMORY');
  return db;
}

/** A connection to the service's MariaDB database, times in UTC as the service writes them. */
export async function mysqlConnection(env) {
  const { createConnection } = await import('mysql2/promise');
  return createConnection({
    host: env.DB_HOST,
    port: Number(env.DB_PORT),
    user: env.DB_USER,
    password: env.DB_PASSWORD,
    database: env.DB_NAME,
    timezone: 'Z',
  });
}

async function mysqlWriter(env, analyze) {
  const connection = await mysqlConnection(env);
  return {
    time: (date) => date,
    insert: async (tables) => {
      await connection.beginTransaction();
      for (const [text, rows] of tables) {
        if (rows.length > 0) await connection.query(`${text} VALUES ${rows.map((row) => placeholders(row.length)).join(', ')}`, rows.flat());
      }
      await connection.commit();
    },
    /** Until InnoDB's page cleaner has written back what it will of the pages the load dirtied (at most 10 minutes). */
    settle: async () => {
      if (analyze.length > 0) await connection.query(`ANALYZE TABLE ${analyze.join(', ')}`);
      let dirty = Infinity;
      for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const [[row]] = await connection.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
        if (Number(row.Value) >= dirty) return;
        dirty = Number(row.Value);
      }
    },
    close: async () => connection.end(),
  };
}
