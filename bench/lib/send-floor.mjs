// The floor of a bulk send: the rows POST /sms/send writes for 1,000 recipients scheduled a day ahead (each message and
// its outbox entry), written by the bench itself as one multi-row statement per table and one transaction per request,
// with the service's connection settings; then deleted. What a service doing nothing but these writes would accept.
import { ulid } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { insert, MESSAGE_COLUMNS, OUTBOX_COLUMNS } from './campaigns.mjs';
import { mysqlConnection, sqliteConnection } from './fill.mjs';
import { nextRecipient } from './load.mjs';

const TEXT = 'Votre commande est prête. Merci de votre confiance.';
const DAY_MS = 86_400_000;
/** A price row's id, as every message of the service names one. */
const PRICE_ID = uuidv7();

/** Recipients per second over `requests` transactions of `perRequest` messages each, for the account `account`. */
export async function sendFloor(env, account, { requests, perRequest }) {
  const db = env.DB_TYPE === 'mysql' ? await mysqlWriter(env) : await sqliteWriter(env);
  try {
    const batches = Array.from({ length: requests }, () => rowsOf(account, perRequest, db.time));
    const started = performance.now();
    for (const batch of batches) await db.write(batch, perRequest);
    const seconds = (performance.now() - started) / 1000;
    await db.forget(account.accountId);
    return { recipients: requests * perRequest, seconds: Number(seconds.toFixed(2)), per_second: Math.round((requests * perRequest) / seconds) };
  } finally {
    await db.close();
  }
}

function rowsOf(account, count, time) {
  const lot = ulid();
  const at = time(new Date());
  const due = time(new Date(Date.now() + DAY_MS));
  const messages = [];
  const outbox = [];
  for (let i = 0; i < count; i++) {
    const uniqId = uuidv7();
    const to = nextRecipient();
    messages.push(uniqId, account.accountId, null, PRICE_ID, 'sms', lot, account.senderId, to, 'CI', TEXT, 1, 'GSM7', 250, due, 'scheduled', 'api');
    messages.push(null, null, null, 0, account.userId, 0, null, null, 0, at);
    const payload = JSON.stringify({ from: account.sender, to, text: TEXT, secrets: [], validityMinutes: 2880 });
    outbox.push('sms', uniqId, account.accountId, 250, payload, 0, null, 0, 1, 1, due, due);
  }
  return { messages, outbox };
}

async function sqliteWriter(env) {
  const db = await sqliteConnection(env);
  const statements = new Map();
  const statement = (table, columns, rows) => {
    const key = `${table} ${rows}`;
    if (!statements.has(key)) statements.set(key, db.prepare(insert(table, columns, rows)));
    return statements.get(key);
  };
  const write = db.transaction((batch, rows) => {
    statement('message_out', MESSAGE_COLUMNS, rows).run(batch.messages);
    statement('outbox', OUTBOX_COLUMNS, rows).run(batch.outbox);
  });
  return {
    time: (date) => date.toISOString().slice(0, 23).replace('T', ' '),
    write: async (batch, rows) => write(batch, rows),
    forget: async (accountId) => {
      db.prepare('DELETE FROM outbox WHERE account_id = ?').run(accountId);
      db.prepare('DELETE FROM message_out WHERE account_id = ?').run(accountId);
    },
    close: async () => db.close(),
  };
}

async function mysqlWriter(env) {
  const connection = await mysqlConnection(env);
  return {
    time: (date) => date,
    write: async (batch, rows) => {
      await connection.beginTransaction();
      await connection.query(insert('message_out', MESSAGE_COLUMNS, rows), batch.messages);
      await connection.query(insert('outbox', OUTBOX_COLUMNS, rows), batch.outbox);
      await connection.commit();
    },
    forget: async (accountId) => {
      await connection.query('DELETE FROM outbox WHERE account_id = ?', [accountId]);
      await connection.query('DELETE FROM message_out WHERE account_id = ?', [accountId]);
    },
    close: async () => connection.end(),
  };
}
