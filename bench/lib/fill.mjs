// Fills the service's database with old OTPs and messages, with bulk SQL (not through the API).
import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { recipientNumber } from './load.mjs';

const BATCH = 1000;
const DAY_MS = 86_400_000;

/** `count` OTPs, each with its SMS record and its recipient row, created over the last 30 days. */
export async function fill(env, accountId, count) {
  const db = env.DB_TYPE === 'mysql' ? await mysqlWriter(env) : await sqliteWriter(env);
  const now = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const created = new Date(now - 30 * DAY_MS + Math.floor((i / count) * 29 * DAY_MS));
      rows.push({ id: uuidv7({ msecs: created.getTime() }), lot: ulid(created.getTime()), to: recipientNumber(50_000_000 + i), created });
    }
    await db.insert(rows, accountId);
  }
  // a bulk load leaves work behind that rows arriving one by one never pile up
  await db.settle();
  await db.close();
  return { otps: count, messages: count };
}

const time = (date, sqlite) => (sqlite ? date.toISOString().slice(0, 23).replace('T', ' ') : date);

function columns(row, accountId, sqlite) {
  const expires = new Date(row.created.getTime() + 300_000);
  return {
    otp: [row.id, accountId, row.to, 'SMS', randomBytes(32).toString('hex'), 'verified', 0, time(expires, sqlite), 'fr', row.lot, accountId, 0, time(row.created, sqlite)],
    message: [row.id, accountId, 'otp', row.lot, row.to, 'Votre code est ******', 1, 'GSM7', 250, time(row.created, sqlite), 'delivered', 'api', 0, accountId, 0, 0, time(row.created, sqlite)],
    recipient: [accountId, row.to, row.id, time(row.created, sqlite)],
  };
}

const OTP = 'INSERT INTO otp (uniq_id, account_id, recipient, channel, code_hash, status, attempts, expires_at, language, lot, created_by, is_test, created_at)';
const MESSAGE =
  'INSERT INTO message_out (uniq_id, account_id, type, lot, recipient, message, page, message_encoding, amount, send_at, status, source, dlr_number_retry, created_by, retrieve, is_test, created_at)';
const RECIPIENT = 'INSERT INTO otp_recipient (account_id, recipient, latest_otp_id, created_at)';
const placeholders = (n) => `(${Array(n).fill('?').join(', ')})`;

async function sqliteWriter(env) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(env.DB_PATH);
  db.pragma('busy_timeout = 10000');
  const otp = db.prepare(`${OTP} VALUES ${placeholders(13)}`);
  const message = db.prepare(`${MESSAGE} VALUES ${placeholders(17)}`);
  const recipient = db.prepare(`${RECIPIENT} VALUES ${placeholders(4)}`);
  const insert = db.transaction((rows, accountId) => {
    for (const row of rows) {
      const values = columns(row, accountId, true);
      otp.run(...values.otp);
      message.run(...values.message);
      recipient.run(...values.recipient);
    }
  });
  return {
    insert: async (rows, accountId) => insert(rows, accountId),
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

async function mysqlWriter(env) {
  const connection = await mysqlConnection(env);
  const many = async (statement, width, rows) =>
    connection.query(`${statement} VALUES ${rows.map(() => placeholders(width)).join(', ')}`, rows.flat());
  return {
    insert: async (rows, accountId) => {
      const values = rows.map((row) => columns(row, accountId, false));
      await connection.beginTransaction();
      await many(OTP, 13, values.map((v) => v.otp));
      await many(MESSAGE, 17, values.map((v) => v.message));
      await many(RECIPIENT, 4, values.map((v) => v.recipient));
      await connection.commit();
    },
    /** Until InnoDB's page cleaner has written back what it will of the pages the load dirtied (at most 10 minutes). */
    settle: async () => {
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
