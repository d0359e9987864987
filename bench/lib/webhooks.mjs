// Webhook fan-out: events put in the webhook outbox with bulk SQL, then timed until a local receiver has them all.
import { createServer } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { mysqlConnection } from './fill.mjs';

const BATCH = 1000;

/** A receiver in this process that answers 200 to every webhook and counts them; `quiet()` resolves once none came for a second. */
export async function startReceiver() {
  let count = 0;
  let lastAt = Date.now();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count++;
      lastAt = Date.now();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/sms`,
    received: () => count,
    quiet: async () => {
      while (Date.now() - lastAt < 1000) await new Promise((resolve) => setTimeout(resolve, 200));
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Writes `count` due events for `accountId`, each to a per-message URL on a receiver in this process, and
 * measures how fast the running service POSTs them (signed, each attempt recorded): events delivered per second.
 */
export async function webhookFanOut(env, accountId, count) {
  const received = new Set();
  let first = 0;
  let last = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.add(request.headers['webhook-id']);
      first ||= Date.now();
      last = Date.now();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;

  const db = env.DB_TYPE === 'mysql' ? await mysqlWriter(env) : await sqliteWriter(env);
  const written = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) rows.push(eventRow(accountId, url, i));
    await db.insert(rows);
  }
  await db.close();
  const wroteMs = Date.now() - written;

  const deadline = Date.now() + 300_000;
  while (received.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  receiver.closeAllConnections();
  receiver.close();
  const seconds = (last - first) / 1000;
  return { events: count, delivered: received.size, seconds: Number(seconds.toFixed(2)), per_second: Math.round(received.size / seconds), write_ms: wroteMs };
}

function eventRow(accountId, url, i) {
  const at = new Date();
  const id = uuidv7();
  const data = { uniq_id: uuidv7(), lot: 'BENCH', to: `+22507${String(i).padStart(8, '0')}`, status: 'sent', sequence: 1, sandbox: false };
  const body = JSON.stringify({ id, type: 'sms.sent', created_at: at.toISOString(), api_version: 'v1', data });
  return { id, accountId, url, body, at };
}

const INSERT = 'INSERT INTO webhook_event (id, account_id, type, url, body, state, attempts, available_at, created_at)';

async function sqliteWriter(env) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(env.DB_PATH);
  db.pragma('busy_timeout = 10000');
  const statement = db.prepare(`${INSERT} VALUES (?, ?, 'sms.sent', ?, ?, 'pending', 0, ?, ?)`);
  const time = (date) => date.toISOString().slice(0, 23).replace('T', ' ');
  const insert = db.transaction((rows) => {
    for (const row of rows) statement.run(row.id, row.accountId, row.url, row.body, time(row.at), time(row.at));
  });
  return { insert: async (rows) => insert(rows), close: async () => db.close() };
}

async function mysqlWriter(env) {
  const connection = await mysqlConnection(env);
  return {
    insert: async (rows) =>
      connection.query(
        `${INSERT} VALUES ${rows.map(() => "(?, ?, 'sms.sent', ?, ?, 'pending', 0, ?, ?)").join(', ')}`,
        rows.flatMap((row) => [row.id, row.accountId, row.url, row.body, row.at, row.at]),
      ),
    close: async () => connection.end(),
  };
}
