// The floor of a bulk send: the rows POST /sms/send writes for 1,000 recipients scheduled a day ahead (each message, and
// the outbox's entries holding them 100 a chunk), written by the bench itself as one multi-row statement per table and
// one transaction per request, with the service's connection settings. What a service doing nothing but these writes
// would accept. It runs right after each measured run of the service's 1,000-recipient sends, into the same tables, and
// leaves its rows there as the service leaves its own: both write into tables of the same size, and neither refills
// room that deletes left in the indexes' pages (a floor that deleted its rows after each run wrote its next ones into
// those holes, 3-4 times as fast as into tables that grow).
import { ulid } from 'ulid';
import { v7 as uuidv7 } from 'uuid';
import { CHUNK_COLUMNS, CHUNK_MESSAGES, chunkRows, insert, MESSAGE_COLUMNS } from './campaigns.mjs';
import { mysqlConnection, sqliteConnection } from './fill.mjs';
import { nextRecipient } from './load.mjs';

const TEXT = 'Votre commande est prête. Merci de votre confiance.';
const DAY_MS = 86_400_000;
const chunksOf = (messages) => Math.ceil(messages / CHUNK_MESSAGES);
/** A price row's id, as every message of the service names one. */
const PRICE_ID = uuidv7();

/**
 * Recipients per second of transactions of `perRequest` messages each for `account` (`accountId`, `userId`,
 * `senderId` and the sender's name `sender`), written for `seconds` of writing after `warmup` seconds not counted (a
 * new connection's page cache is cold; the service's is warm). The time spent making the rows is not counted.
 */
export async function sendFloor(env, account, { warmup, seconds, perRequest }) {
  const db = env.DB_TYPE === 'mysql' ? await mysqlWriter(env, perRequest) : await sqliteWriter(env, perRequest);
  const writeFor = async (ms) => {
    let writing = 0;
    let written = 0;
    while (writing < ms) {
      const batch = rowsOf(account, perRequest, db.time);
      const started = performance.now();
      await db.write(batch);
      writing += performance.now() - started;
      written += perRequest;
    }
    return Math.round(written / (writing / 1000));
  };
  try {
    await writeFor(warmup * 1000);
    return await writeFor(seconds * 1000);
  } finally {
    await db.close();
  }
}

function rowsOf(account, count, time) {
  const lot = ulid();
  const at = time(new Date());
  const due = time(new Date(Date.now() + DAY_MS));
  const messages = [];
  const queued = [];
  for (let i = 0; i < count; i++) {
    const uniqId = uuidv7();
    const to = nextRecipient();
    messages.push(uniqId, account.accountId, null, PRICE_ID, 'sms', lot, account.senderId, to, 'CI', TEXT, 1, 'GSM7', 250, due, 'scheduled', 'api');
    messages.push(null, null, null, 0, account.userId, 0, null, null, 0, at);
    queued.push({ recordId: uniqId, amount: 250, payload: { from: account.sender, to, text: TEXT, secrets: [], validityMinutes: 2880 } });
  }
  return { messages, outbox: chunkRows(account.accountId, queued, { scheduled: true, due }).params };
}

async function sqliteWriter(env, rows) {
  const db = await sqliteConnection(env);
  // as the service's connection: its log is checkpointed by the service's worker thread, which runs beside
  db.pragma('wal_autocheckpoint = 0');
  const messages = db.prepare(insert('message_out', MESSAGE_COLUMNS, rows));
  const outbox = db.prepare(insert('outbox', CHUNK_COLUMNS, chunksOf(rows)));
  const write = db.transaction((batch) => {
    messages.run(batch.messages);
    outbox.run(batch.outbox);
  });
  return {
    time: (date) => date.toISOString().slice(0, 23).replace('T', ' '),
    write: async (batch) => write(batch),
    close: async () => db.close(),
  };
}

async function mysqlWriter(env, rows) {
  const connection = await mysqlConnection(env);
  return {
    time: (date) => date,
    write: async (batch) => {
      await connection.beginTransaction();
      await connection.query(insert('message_out', MESSAGE_COLUMNS, rows), batch.messages);
      await connection.query(insert('outbox', CHUNK_COLUMNS, chunksOf(rows)), batch.outbox);
      await connection.commit();
    },
    close: async () => connection.end(),
  };
}
