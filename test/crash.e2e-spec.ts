import { freePort, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { waitFor } from './support/until.js';
import { checkedFetch, UndocumentedAnswer } from './support/openapi-answers.js';

const SECRET = 'crash-e2e-secret-0123456789abcdef0123456';
const COST = 2.5;
const START_BALANCE = 100_000;
const WORKERS = 8;

interface Accepted {
  to: string;
  uniq_id: string;
  code: string;
}

const recipient = (n: number) => `+2250707${String(n).padStart(6, '0')}`;
/** One row of a read on the server's database, from outside the server. */
const queryOne = async (env: Record<string, string>, sql: string, params: unknown[]) => (await queryServerDatabase(env, sql, params))[0];

/** `kill -9` of the server in the middle of a burst of sends, then a restart on the same database. */
describe('a server killed with SIGKILL during sends', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  const accepted: Accepted[] = [];
  let tried = 0;
  let unanswered = 0;
  const refused: number[] = [];

  const post = async (path: string, body: object) => {
    const response = await checkedFetch(`${base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
  };
  const otpRows = async () =>
    Number((await queryOne(env, 'SELECT COUNT(*) AS count FROM otp WHERE account_id = ?', [account.account_id])).count);
  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...database.env,
      PORT: String(port),
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://sms.example.com',
      LOG_LEVEL: 'warn',
      JWT_SECRET: SECRET,
      OTP_SECRET: SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
      // entries claimed by the killed process are offered again after this lease
      OUTBOX_LEASE_SECONDS: '5',
      // messages stay as the hand-over left them: no receipts from the log provider
      LOG_RECEIPT_DELAY_MS: '0',
    };
    const created = runCli(env, 'account:create', '--name', 'Crash Test', '--balance', String(START_BALANCE));
    if (created.status !== 0) throw new Error(`account:create failed: ${created.stderr}`);
    account = created.json as typeof account;
    await serve();

    let next = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const to = recipient(next++);
        tried++;
        try {
          const res = await post('/v1/otp/send', { channel: 'SMS', to, message: 'Code ##OTP##' });
          if (res.status === 200) accepted.push({ to, uniq_id: String(res.body.data?.uniq_id), code: String(res.body.data?.code) });
          else refused.push(res.status);
        } catch (error) {
          if (error instanceof UndocumentedAnswer) throw error;
          unanswered++;
        }
      }
    };
    const started = Date.now();
    const workers = Array.from({ length: WORKERS }, worker);
    await waitFor(async () => Date.now() - started >= 1000 && accepted.length >= 10, 30_000);
    killed = true;
    await server?.stop('SIGKILL');
    await Promise.all(workers);

    await serve();
    const committed = await otpRows();
    console.log(`crash (${env.DB_TYPE}): ${tried} sends tried, ${accepted.length} answered 200, ${refused.length} answered otherwise, ${unanswered} unanswered, ${committed} committed`);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  }, 60_000);

  it('answers the burst with 200s only, and verifies on the restarted server every code answered before the kill', async () => {
    const answers = [];
    for (let i = 0; i < accepted.length; i += WORKERS) {
      const batch = accepted.slice(i, i + WORKERS);
      answers.push(...(await Promise.all(batch.map((sent) => post('/v1/otp/verify', { to: sent.to, code: sent.code })))));
    }

    expect(refused).toEqual([]);
    expect(answers.map((res) => [res.status, res.body.data?.uniq_id])).toEqual(accepted.map((sent) => [200, sent.uniq_id]));
  }, 120_000);

  it('debits exactly the OTPs it stored, and its ledger agrees with the balance', async () => {
    const committed = await otpRows();
    const balance = START_BALANCE - COST * committed;

    expect(committed).toBeGreaterThanOrEqual(accepted.length);
    const read = await checkedFetch(`${base}/v1/account`, { headers: { Authorization: `Bearer ${account.api_key}` } });
    expect(((await read.json()) as { data: { balance: number } }).data.balance).toBe(balance);
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance, ledger_sum: balance, consistent: true });
  }, 60_000);

  it('delivers every stored SMS once the claims of the killed process run out, leaving the outbox empty', async () => {
    const pending = async () => ({
      outbox: Number((await queryOne(env, 'SELECT COUNT(*) AS count FROM outbox', [])).count),
      unsent: Number(
        (await queryOne(env, "SELECT COUNT(*) AS count FROM message_out WHERE account_id = ? AND status <> 'sent'", [account.account_id]))
          .count,
      ),
    });

    await waitFor(async () => {
      const left = await pending();
      return left.outbox === 0 && left.unsent === 0;
    }, 100_000);

    const sent = await queryOne(env, "SELECT COUNT(*) AS count FROM message_out WHERE account_id = ? AND status = 'sent'", [
      account.account_id,
    ]);
    expect(Number(sent.count)).toBe(await otpRows());
  }, 120_000);
});
