import { callInstance, countByStatus, createAccount as newAccount, expectAttemptsCountedAcross, expectOneVerified } from './support/instance-calls.js';
import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { waitFor } from './support/until.js';

const SECRET = 'workers-e2e-secret-0123456789abcdefghijk';
const COST = 2.5;
const MESSAGE = 'Votre code ##OTP##';
const RATE_LIMIT = 200;

interface Account {
  account_id: string;
  api_key: string;
}

const recipient = (n: number) => `+2250708${String(n).padStart(6, '0')}`;
/** The pids of the processes that wrote the log lines holding `marker`. */
const pidsOf = (output: string, marker: string) =>
  new Set(output.split('\n').filter((line) => line.includes(marker)).map((line) => (JSON.parse(line) as { pid: number }).pid));

/**
 * One server started with WORKERS=2 (two processes sharing the port, each with its own database connection and job
 * runner) on SQLite or MariaDB: the concurrency, idempotency, rate-limit and delivery guarantees hold as with one
 * process, whichever process each connection reaches.
 */
describe('a server with two worker processes', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: ServerProcess;
  let base: string;

  const call = (method: string, path: string, key: string, body?: object, headers?: Record<string, string>) =>
    callInstance([base], 0, { method, path, key, body, headers });
  const send = (account: Account, to: string, headers?: Record<string, string>) =>
    call('POST', '/v1/otp/send', account.api_key, { channel: 'SMS', to, message: MESSAGE }, headers);
  const verify = (account: Account, to: string, code: string) => call('POST', '/v1/otp/verify', account.api_key, { to, code });
  const createAccount = (name: string, balance: string): Account => newAccount(env, name, balance);
  const count = async (sql: string, params: unknown[] = []) => Number((await queryServerDatabase(env, sql, params))[0]!.count);

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = productionEnv(database.env, SECRET, { PORT: String(port), LOG_LEVEL: 'info', WORKERS: '2', RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  }, 120_000);

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    await database?.drop();
  }, 60_000);

  it('says that it serves once both processes listen, and serves through both', async () => {
    expect(server.stdout()).toContain('with 2 workers');
    const account = createAccount('Both Workers', '0');
    // the primary hands connections to the processes in turn; a batch may still land on one, so batches until both served
    await waitFor(async () => {
      await Promise.all(Array.from({ length: 40 }, () => call('GET', '/v1/account', account.api_key)));
      return pidsOf(server.stdout(), `"accountId":"${account.account_id}"`).size === 2;
    }, 20_000, 100);
    expect(pidsOf(server.stdout(), `"accountId":"${account.account_id}"`).size).toBe(2);
  }, 60_000);

  it('gives exactly one 200 to 50 simultaneous verifications of one right code', async () => {
    const account = createAccount('Verify Race', '100');
    const sent = await send(account, recipient(1));
    expect(sent.status).toBe(200);

    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(account, recipient(1), sent.body.data.code)));

    expectOneVerified(answers, sent.body.data.uniq_id);
  }, 60_000);

  it('accepts exactly the 10 sends a balance covers out of 40 simultaneous ones, and the ledger agrees', async () => {
    const account = createAccount('Balance Race', String(10 * COST));

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => send(account, recipient(100 + i))));

    expect(countByStatus(answers)).toEqual({ 200: 10, 402: 30 });
    expect((await call('GET', '/v1/account', account.api_key)).body.data.balance).toBe(0);
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance: 0, ledger_sum: 0, consistent: true });
  }, 60_000);

  it('counts the per-recipient send limit across processes: 5 of 12 simultaneous sends to one number pass', async () => {
    const account = createAccount('Recipient Limit', '100');

    const answers = await Promise.all(Array.from({ length: 12 }, () => send(account, recipient(2))));

    expect(countByStatus(answers)).toEqual({ 200: 5, 429: 7 });
    expect((await call('GET', '/v1/account', account.api_key)).body.data.balance).toBe(100 - 5 * COST);
  }, 60_000);

  it('counts wrong codes across processes: after 5, even the right code is refused with 429', async () => {
    const account = createAccount('Attempt Limit', '100');
    const sent = await send(account, recipient(3));

    await expectAttemptsCountedAcross((_, guess) => verify(account, recipient(3), guess), sent.body.data.code);
  }, 60_000);

  it('sends once for 30 simultaneous requests with one Idempotency-Key', async () => {
    const account = createAccount('Idempotent', '100');

    const answers = await Promise.all(Array.from({ length: 30 }, () => send(account, recipient(4), { 'Idempotency-Key': 'workers-once' })));

    const sent = answers.filter((answer) => answer.status === 200);
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const answer of sent) expect(answer.body).toEqual(sent[0]!.body);
    expect(await count('SELECT COUNT(*) AS count FROM otp WHERE account_id = ?', [account.account_id])).toBe(1);
    expect((await call('GET', '/v1/account', account.api_key)).body.data.balance).toBe(100 - COST);
  }, 60_000);

  it(`lets exactly ${RATE_LIMIT} requests of a credential through in a minute, whichever process counts them`, async () => {
    const account = createAccount('Rate Limit', '0');
    // all within one window of the limit
    await waitFor(() => new Date().getSeconds() < 40, 30_000);

    const answers = await Promise.all(Array.from({ length: 2 * RATE_LIMIT + 30 }, () => call('GET', '/v1/account', account.api_key)));

    expect(countByStatus(answers)).toEqual({ 200: RATE_LIMIT, 429: RATE_LIMIT + 30 });
  }, 60_000);

  it('hands every message over exactly once, both processes dispatching', async () => {
    const account = createAccount('Outbox Burst', '1000');

    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(account, recipient(200 + i))));
    expect(countByStatus(answers)).toEqual({ 200: 60 });
    const ids: string[] = answers.map((answer) => answer.body.data.uniq_id);

    const handOvers = (id: string) => server.stdout().split(`"messageId":"${id}"`).length - 1;
    await waitFor(async () => (await count('SELECT COUNT(*) AS count FROM outbox')) === 0, 60_000);
    await waitFor(async () => ids.every((id) => handOvers(id) > 0), 10_000);

    expect(ids.filter((id) => handOvers(id) !== 1)).toEqual([]);
    expect(await count("SELECT COUNT(*) AS count FROM message_out WHERE account_id = ? AND status = 'sent'", [account.account_id])).toBe(60);
    expect(pidsOf(server.stdout(), `"messageId":"`).size).toBe(2);
  }, 120_000);
});
