import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/until.js';
import { callInstance, countByStatus, createAccount as newAccount, expectAttemptsCountedAcross, expectOneVerified } from '../support/instance-calls.js';

const SECRET = 'two-instances-e2e-secret-0123456789abcde';
const COST = 2.5;
const MESSAGE = 'Votre code ##OTP##';

interface Account {
  account_id: string;
  api_key: string;
}

const recipient = (n: number) => `+2250707${String(n).padStart(6, '0')}`;
/** Two server processes on one MariaDB database: the guarantees hold across instances, requests alternating between them. */
describe('two instances on one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let db: Connection;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];

  const call = (instance: number, method: string, path: string, key: string, body?: object) => callInstance(bases, instance, { method, path, key, body });
  const send = (instance: number, account: Account, to: string) =>
    call(instance, 'POST', '/v1/otp/send', account.api_key, { channel: 'SMS', to, message: MESSAGE });
  const verify = (instance: number, account: Account, to: string, code: string) =>
    call(instance, 'POST', '/v1/otp/verify', account.api_key, { to, code });
  const createAccount = (name: string, balance: string): Account => newAccount(env, name, balance);
  const count = async (sql: string, params: unknown[] = []) => {
    const [rows] = await db.query<RowDataPacket[]>(sql, params);
    return Number(rows[0].count);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    env = {
      ...database.env,
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://sms.example.com',
      LOG_LEVEL: 'info',
      JWT_SECRET: SECRET,
      OTP_SECRET: SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
    };
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
    db = await createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER,
      password: process.env.DB_PASSWORD,
      database: database.env.DB_NAME,
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.end();
    await database?.drop();
  }, 60_000);

  it('gives exactly one 200 to 50 simultaneous verifications of one right code', async () => {
    const account = createAccount('Verify Race', '100');
    const sent = await send(0, account, recipient(1));
    expect(sent.status).toBe(200);

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => verify(i, account, recipient(1), sent.body.data.code)));

    const verified = answers.filter((answer) => answer.status === 200);
    expect(verified.map((answer) => answer.body)).toEqual([
      {
        status: 200,
        message: 'success',
        data: {
          uniq_id: sent.body.data.uniq_id,
          to: recipient(1),
          channel: 'sms',
          verified_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
          send_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
          application_name: null,
        },
      },
    ]);
    expectOneVerified(answers, sent.body.data.uniq_id);
  }, 60_000);

  it('accepts exactly the 10 sends a balance covers out of 40 simultaneous ones, and the ledger agrees', async () => {
    const account = createAccount('Balance Race', String(10 * COST));

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i, account, recipient(100 + i))));

    expect(countByStatus(answers)).toEqual({ 200: 10, 402: 30 });
    for (const refused of answers.filter((answer) => answer.status === 402)) {
      expect(refused.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: COST, balance: 0 } });
    }
    for (const instance of [0, 1]) {
      expect((await call(instance, 'GET', '/v1/account', account.api_key)).body.data.balance).toBe(0);
    }
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance: 0, ledger_sum: 0, consistent: true });
  }, 60_000);

  it('counts the per-recipient send limit across both instances: 5 of 12 simultaneous sends to one number pass', async () => {
    const account = createAccount('Recipient Limit', '100');

    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i, account, recipient(2))));

    expect(countByStatus(answers)).toEqual({ 200: 5, 429: 7 });
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body).toEqual({ status: 429, message: 'trop_de_requetes', errors: [expect.any(String)] });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await call(1, 'GET', '/v1/account', account.api_key)).body.data.balance).toBe(100 - 5 * COST);
  }, 60_000);

  it('counts wrong codes across both instances: after 5, even the right code is refused with 429', async () => {
    const account = createAccount('Attempt Limit', '100');
    const sent = await send(0, account, recipient(3));
    const code: string = sent.body.data.code;

    await expectAttemptsCountedAcross((instance, guess) => verify(instance, account, recipient(3), guess), code);
  }, 60_000);

  it('hands every outbox entry to the provider exactly once when both instances dispatch', async () => {
    const account = createAccount('Outbox Burst', '1000');

    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(i, account, recipient(200 + i))));
    expect(countByStatus(answers)).toEqual({ 200: 60 });
    const ids: string[] = answers.map((answer) => answer.body.data.uniq_id);

    const handOvers = (id: string) =>
      servers.map((server) => server.stdout().split(`"messageId":"${id}"`).length - 1).reduce((a, b) => a + b, 0);
    await waitFor(async () => (await count('SELECT COUNT(*) AS count FROM outbox')) === 0, 60_000);
    await waitFor(async () => ids.every((id) => handOvers(id) > 0), 10_000);

    expect(ids.filter((id) => handOvers(id) !== 1)).toEqual([]);
    const [rows] = await db.query<RowDataPacket[]>('SELECT uniq_id, status, provider, provider_id FROM message_out WHERE account_id = ?', [
      account.account_id,
    ]);
    expect(rows.map((row) => ({ ...row })).sort((a, b) => a.uniq_id.localeCompare(b.uniq_id))).toEqual(
      [...ids].sort().map((id) => ({ uniq_id: id, status: 'sent', provider: 'log', provider_id: `log-${id}` })),
    );
    const read = await Promise.all(ids.map((id, i) => call(i, 'GET', `/v1/sms/out/${id}`, account.api_key)));
    expect(read.map((answer) => [answer.status, answer.body.data?.status])).toEqual(ids.map(() => [200, 'sent']));
  }, 120_000);
});
