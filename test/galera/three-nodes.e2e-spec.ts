import { createConnection, type RowDataPacket } from 'mysql2/promise';
import {
  callInstance,
  createAccount as newAccount,
  type Json,
  countByStatus,
  wrongCode,
  expectAttemptsCountedAcross,
  expectOneVerified,
} from '../support/instance-calls.js';
import { checkedFetch } from '../support/openapi-answers.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/until.js';

const SECRET = 'galera-three-nodes-e2e-secret-0123456789';
const METRICS_TOKEN = 'galera-metrics-token';
const COST = 2.5;
const MESSAGE = 'Votre code ##OTP##';
const RATE_LIMIT = 200;
const INSTANCES = 3;

interface Account {
  account_id: string;
  api_key: string;
}

const recipient = (n: number) => `+2250708${String(n).padStart(6, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Three server processes, each on its own node of a Galera cluster (DB_HOSTS, see startInstances), requests
 * spread over them in turn: the guarantees of a single database hold across nodes, where row locks do not.
 */
describe('three instances on a three-node Galera cluster', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const servers: Array<ServerProcess & { base: string }> = [];

  const call = (instance: number, method: string, path: string, key: string, body?: object, timeoutMs?: number) =>
    callInstance(
      servers.map((server) => server.base),
      instance,
      { method, path, key, body, timeoutMs },
    );
  const send = (instance: number, account: Account, to: string, timeoutMs?: number) =>
    call(instance, 'POST', '/v1/otp/send', account.api_key, { channel: 'SMS', to, message: MESSAGE }, timeoutMs);
  const verify = (instance: number, account: Account, to: string, code: string) =>
    call(instance, 'POST', '/v1/otp/verify', account.api_key, { to, code });
  const createAccount = (name: string, balance: string): Account => newAccount(env, name, balance);
  const handOvers = (id: string) => servers.map((server) => server.stdout().split(`"messageId":"${id}"`).length - 1).reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    database = await createTestDatabase();
    env = productionEnv(database.env, SECRET, { LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), METRICS_TOKEN });
    const nodes = (process.env.DB_HOSTS ?? '').split(',');
    expect(await Promise.all(nodes.map(clusterSizeSeenBy))).toEqual([INSTANCES, INSTANCES, INSTANCES]);
    // instance i connects to node i first (startInstances)
    servers.push(...(await startInstances(env, INSTANCES)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }, 60_000);

  it('gives exactly one 200 to 50 simultaneous verifications of one code spread over the three', async () => {
    const account = createAccount('Galera Verify Race', '100');
    const sent = await send(0, account, recipient(1));
    expect(sent.status).toBe(200);

    // the code was sent through instance 0: instances 1 and 2 read it at once (causal reads)
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => verify(i, account, recipient(1), sent.body.data.code)));

    expectOneVerified(answers, sent.body.data.uniq_id);
  }, 90_000);

  it('accepts exactly the 20 sends a balance covers out of 60 simultaneous ones; the balance equals the ledger, never below zero', async () => {
    const account = createAccount('Galera Balance Race', String(20 * COST));

    // sends racing for one balance row commit one at a time across the cluster, the losers run again after a lost
    // certification: with the suite's other specs writing to the same cluster, the last answer came after more than a
    // call's usual 30 s in one CI run
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(i, account, recipient(100 + i), 100_000)));

    expect(countByStatus(answers)).toEqual({ 200: 20, 402: 40 });
    for (let instance = 0; instance < INSTANCES; instance++) {
      expect((await call(instance, 'GET', '/v1/account', account.api_key)).body.data.balance).toBe(0);
    }
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance: 0, ledger_sum: 0, consistent: true });
    const [lowest] = await query(env, 'SELECT MIN(balance_after) AS lowest, COUNT(*) AS entries FROM ledger_entry WHERE account_id = ?', [
      account.account_id,
    ]);
    expect({ lowest: Number(lowest!.lowest), entries: Number(lowest!.entries) }).toEqual({ lowest: 0, entries: 21 });
  }, 150_000);

  it('counts the per-recipient send limit across the three: 5 of 15 simultaneous sends to one number pass', async () => {
    const account = createAccount('Galera Recipient Limit', '100');

    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => send(i, account, recipient(2))));

    expect(countByStatus(answers)).toEqual({ 200: 5, 429: 10 });
    expect((await call(1, 'GET', '/v1/account', account.api_key)).body.data.balance).toBe(100 - 5 * COST);
  }, 90_000);

  it('counts wrong codes across the three: 5 alternating between them, then even the right code is refused with 429', async () => {
    const account = createAccount('Galera Attempt Limit', '100');
    const sent = await send(0, account, recipient(3));
    const code: string = sent.body.data.code;

    await expectAttemptsCountedAcross((instance, guess) => verify(instance, account, recipient(3), guess), code);
  }, 60_000);

  it('counts 15 simultaneous wrong codes spread over the three: 5 × 400, 10 × 429, then the right code 429', async () => {
    const account = createAccount('Galera Attempt Race', '100');
    const sent = await send(0, account, recipient(4));
    const code: string = sent.body.data.code;

    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => verify(i, account, recipient(4), wrongCode(code))));

    expect(countByStatus(answers)).toEqual({ 400: 5, 429: 10 });
    expect((await verify(2, account, recipient(4), code)).body).toEqual({ status: 429, message: 'trop_de_tentatives', errors: [expect.any(String)] });
    const [otp] = await query(env, 'SELECT attempts FROM otp WHERE uniq_id = ?', [sent.body.data.uniq_id]);
    expect(Number(otp!.attempts)).toBe(5);
  }, 60_000);

  it(`lets exactly ${RATE_LIMIT} simultaneous requests of one credential through the three in a minute`, async () => {
    const account = createAccount('Galera Rate Limit', '10');
    // the burst stays within one fixed window of a minute
    if (new Date().getUTCSeconds() > 45) await sleep((61 - new Date().getUTCSeconds()) * 1000);
    // each instance gets more than the limit: none is left holding hits it leased and has no request for
    const burst = INSTANCES * (RATE_LIMIT + 10);

    const answers = await Promise.all(Array.from({ length: burst }, (_, i) => call(i, 'GET', '/v1/account', account.api_key)));

    expect(countByStatus(answers)).toEqual({ 200: RATE_LIMIT, 429: burst - RATE_LIMIT });
  }, 90_000);

  it('hands every accepted message to the provider exactly once when the three dispatch, scheduled ones too', async () => {
    const account = createAccount('Galera Outbox', '1000');
    const sendAt = new Date(Date.now() + 4000);
    const scheduled = Array.from({ length: 30 }, (_, i) =>
      call(i, 'POST', '/v1/sms/send', account.api_key, { to: recipient(400 + i), message: 'Rendez-vous demain', send_at: sendAt.toISOString() }),
    );
    const answers = await Promise.all([...Array.from({ length: 60 }, (_, i) => send(i, account, recipient(200 + i))), ...scheduled]);
    expect(countByStatus(answers)).toEqual({ 200: 90 });
    const lots = answers.slice(60).map((answer) => answer.body.data.lot as string);
    const ids = answers.slice(0, 60).map((answer) => answer.body.data.uniq_id as string);
    const scheduledIds = (
      await query(env, `SELECT uniq_id FROM message_out WHERE account_id = ? AND lot IN (${lots.map(() => '?').join(', ')})`, [
        account.account_id,
        ...lots,
      ])
    ).map((row) => String(row.uniq_id));
    expect(scheduledIds).toHaveLength(30);
    const all = [...ids, ...scheduledIds];

    await waitFor(async () => Number((await query(env, 'SELECT COUNT(*) AS count FROM outbox'))[0]!.count) === 0, 60_000);
    await waitFor(() => all.every((id) => handOvers(id) > 0), 10_000);

    expect(all.filter((id) => handOvers(id) !== 1)).toEqual([]);
    const statuses = await query(env, 'SELECT status, COUNT(*) AS count FROM message_out WHERE account_id = ? GROUP BY status', [account.account_id]);
    expect(statuses.map((row) => [row.status, Number(row.count)])).toEqual([['sent', 90]]);
    const read = await Promise.all(all.map((id, i) => call(i, 'GET', `/v1/sms/out/${id}`, account.api_key)));
    expect(read.map((answer) => answer.body.data?.status)).toEqual(all.map(() => 'sent'));
  }, 120_000);

  it('imports three overlapping files posted through the three at once: every row once, each phone created once', async () => {
    const account = createAccount('Galera Imports', '10');
    const phone = (n: number) => `+2250710${String(n).padStart(6, '0')}`;
    // rows 0-1999, 1000-2999 and 2000-3999: each phone in one or two files
    const files = [0, 1, 2].map((file) =>
      ['phone,name', ...Array.from({ length: 2000 }, (_, n) => `${phone(file * 1000 + n)},Contact ${file * 1000 + n}`)].join('\n'),
    );
    const posted = await Promise.all(
      files.map(async (csv, instance) => {
        const response = await checkedFetch(`${servers[instance]!.base}/v1/contact/import`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': 'text/csv' },
          body: csv,
        });
        return { status: response.status, body: (await response.json()) as Json };
      }),
    );
    expect(posted.map((answer) => answer.status)).toEqual([202, 202, 202]);

    const jobs = async () =>
      Promise.all(
        posted.map(async (answer, i) => (await call(i + 1, 'GET', `/v1/contact/import/${answer.body.data.id}`, account.api_key)).body.data),
      );
    await waitFor(async () => (await jobs()).every((job) => job.status === 'completed'), 90_000, 500);

    const finished = await jobs();
    expect(finished.map((job) => job.rows)).toEqual([2000, 2000, 2000]);
    expect(finished.reduce((sum, job) => sum + job.created, 0)).toBe(4000);
    expect(finished.reduce((sum, job) => sum + job.duplicates, 0)).toBe(2000);
    const [stored] = await query(env, 'SELECT COUNT(*) AS contacts, COUNT(DISTINCT phone) AS phones FROM contact WHERE account_id = ?', [
      account.account_id,
    ]);
    expect({ contacts: Number(stored!.contacts), phones: Number(stored!.phones) }).toEqual({ contacts: 4000, phones: 4000 });
  }, 120_000);

  it('publishes the units of work retried after a lost certification on /metrics', async () => {
    const retried = await Promise.all(
      servers.map(async (server) => {
        const text = await (await fetch(`${server.base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        return Number(/^db_transaction_retries_total (\d+)$/m.exec(text)?.[1]);
      }),
    );
    console.log(`units of work retried after a lost certification, per instance: ${retried.join(', ')}`);
    expect(retried.every((count) => Number.isInteger(count))).toBe(true);
    expect(retried.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});

/** wsrep_cluster_size as the node at `hostPort` sees it. */
async function clusterSizeSeenBy(hostPort: string): Promise<number> {
  const [host, port] = hostPort.split(':');
  const connection = await createConnection({ host, port: Number(port), user: process.env.DB_USER, password: process.env.DB_PASSWORD });
  try {
    const [rows] = await connection.query<RowDataPacket[]>("SHOW STATUS LIKE 'wsrep_cluster_size'");
    return Number(rows[0]?.Value);
  } finally {
    await connection.end();
  }
}
