// CSV import throughput: a file of N contacts imported through the API, beside a plain multi-row INSERT of the same
// rows into the contact table by the bench itself (the floor: the writes alone, without reading, checking or chunking).
import { v7 as uuidv7 } from 'uuid';
import { mysqlConnection, sqliteConnection } from './fill.mjs';
import { median } from './report.mjs';

const INSERT_ROWS = 500;

/** The bench's contacts: unique phones, a name, an e-mail and one attribute each. */
function contactsFile(count) {
  const rows = Array.from({ length: count }, (_, n) => {
    const phone = `+22505${String(10_000_000 + n)}`;
    return { phone, name: `Contact ${n}`, email: `contact${n}@example.com`, city: n % 2 ? 'Abidjan' : 'Bouaké' };
  });
  const csv = `phone,name,email,ville\n${rows.map((row) => `${row.phone},${row.name},${row.email},${row.city}`).join('\n')}\n`;
  return { rows, csv };
}

/**
 * Imports `count` contacts through `POST /v1/contact/import`, timed from the request to the job's `finished_at`,
 * then inserts the same rows with multi-row INSERTs of 500 rows, `rounds` times in turn, each round into new
 * accounts (`accounts()` gives an API key's `auth` and the floor's account id). Medians of the rounds. A first
 * import, before the rounds, warms the service up as the route scenarios' warm-up does (its reader thread
 * started, its code compiled): its time is reported apart, as the cold import.
 */
export async function importThroughput(url, env, accounts, count, rounds) {
  const { rows, csv } = contactsFile(count);
  const cold = await importSeconds(url, accounts().auth, csv, count);
  const imports = [];
  const floors = [];
  for (let round = 0; round < rounds; round++) {
    const { auth, floorAccountId } = accounts();
    imports.push(await importSeconds(url, auth, csv, count));
    floors.push(await insertSeconds(env, rows, floorAccountId));
  }
  const seconds = median(imports);
  const floorSeconds = median(floors);
  return {
    rows: count,
    bytes: Buffer.byteLength(csv),
    rounds,
    cold_seconds: Number(cold.toFixed(2)),
    seconds: Number(seconds.toFixed(2)),
    per_second: Math.round(count / seconds),
    floor_seconds: Number(floorSeconds.toFixed(2)),
    floor_per_second: Math.round(count / floorSeconds),
    ratio: Number((floorSeconds / seconds).toFixed(2)),
    each_seconds: imports.map((value) => Number(value.toFixed(2))),
    each_floor_seconds: floors.map((value) => Number(value.toFixed(2))),
  };
}

async function importSeconds(url, auth, csv, count) {
  const started = Date.now();
  const answer = await fetch(`${url}/v1/contact/import`, { method: 'POST', headers: { authorization: auth, 'content-type': 'text/csv' }, body: csv });
  if (answer.status !== 202) throw new Error(`import refused: ${answer.status} ${await answer.text()}`);
  const { id } = (await answer.json()).data;
  let job;
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    job = (await (await fetch(`${url}/v1/contact/import/${id}`, { headers: { authorization: auth } })).json()).data;
    if (job.status === 'completed' || job.status === 'failed') break;
  }
  if (job.status !== 'completed' || job.created !== count) throw new Error(`import did not complete: ${JSON.stringify({ ...job, errors: job.errors.slice(0, 3) })}`);
  return (Date.parse(job.finished_at) - started) / 1000;
}

async function insertSeconds(env, rows, accountId) {
  const db = env.DB_TYPE === 'mysql' ? await mysqlWriter(env) : await sqliteWriter(env);
  const statements = [];
  for (let start = 0; start < rows.length; start += INSERT_ROWS) statements.push(db.values(rows.slice(start, start + INSERT_ROWS), accountId));
  const started = Date.now();
  for (const params of statements) await db.insert(params);
  const seconds = (Date.now() - started) / 1000;
  await db.close();
  return seconds;
}

/** The parameters of one row, as the service writes a contact (its times in `time`'s form). */
function values(row, accountId, time) {
  const at = time(new Date());
  return [uuidv7(), accountId, row.name, row.email, row.phone, 'CI', 'fr', JSON.stringify({ ville: row.city }), row.name.toLowerCase(), row.email, null, at, at];
}

const INSERT = `INSERT INTO contact (id, account_id, name, email, phone, country, language, attributes, search_name, search_email, created_by, created_at, updated_at)`;
const ROW = `(${Array(13).fill('?').join(', ')})`;

async function sqliteWriter(env) {
  const db = await sqliteConnection(env);
  const statement = db.prepare(`${INSERT} VALUES ${Array(INSERT_ROWS).fill(ROW).join(', ')}`);
  const time = (date) => date.toISOString().slice(0, 23).replace('T', ' ');
  return {
    values: (rows, accountId) => rows.flatMap((row) => values(row, accountId, time)),
    insert: async (params) => statement.run(params),
    close: async () => db.close(),
  };
}

async function mysqlWriter(env) {
  const connection = await mysqlConnection(env);
  return {
    values: (rows, accountId) => rows.flatMap((row) => values(row, accountId, (date) => date)),
    insert: async (params) => connection.query(`${INSERT} VALUES ${Array(params.length / 13).fill(ROW).join(', ')}`, params),
    close: async () => connection.end(),
  };
}
