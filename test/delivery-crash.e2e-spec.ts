import { FakeSmsc } from './support/fake-smsc.js';
import { freePort, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';
import { checkedFetch } from './support/openapi-answers.js';

const SECRET = 'delivery-crash-secret-0123456789abcdef0123';
const SENDS = 20;
const START_BALANCE = 1000;
const COST = 2.5;

const recipient = (n: number) => `+2250708${String(n).padStart(6, '0')}`;

/** SMS sends accepted while the SMSC is down, a `kill -9` of the server, then the SMSC and the server back. */
describe('SMPP delivery across a server killed with SIGKILL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let smsc: FakeSmsc;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  const recipients = Array.from({ length: SENDS }, (_, n) => recipient(n));
  let answers: number[] = [];
  let pendingAtKill: Record<string, unknown>[] = [];

  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };
  const send = async (to: string) => {
    const response = await checkedFetch(`${base}/v1/otp/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'SMS', to, message: 'Code ##OTP##', otp_expiry: 3600 }),
      signal: AbortSignal.timeout(20_000),
    });
    return response.status;
  };
  const messages = () =>
    query(env, 'SELECT recipient, status, provider_id FROM message_out WHERE account_id = ? ORDER BY recipient', [account.account_id]);

  beforeAll(async () => {
    database = await createTestDatabase();
    smsc = new FakeSmsc();
    await smsc.start();
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
      SMS_PROVIDER: 'smpp',
      SMPP_URL: smsc.url,
      OUTBOX_LEASE_SECONDS: '5',
    };
    account = runCli(env, 'account:create', '--name', 'Crash Delivery', '--balance', String(START_BALANCE)).json as typeof account;
    await serve();
    await until(
      () => smsc.binds,
      (binds) => binds > 0,
      15_000,
    );

    const smscPort = smsc.port;
    await smsc.stop();
    answers = await Promise.all(recipients.map(send));
    pendingAtKill = await messages();
    await server?.stop('SIGKILL');

    await smsc.start(smscPort);
    await serve();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await smsc?.stop();
    await database?.drop();
  }, 30_000);

  it('accepts every send while the SMSC is down, and keeps them pending', () => {
    expect(answers).toEqual(recipients.map(() => 200));
    expect(pendingAtKill.map((row) => row.status)).toEqual(recipients.map(() => 'pending'));
  });

  it('submits every message exactly once after the restart, and empties the outbox', async () => {
    const sent = await until(messages, (rows) => rows.length === SENDS && rows.every((row) => row.status === 'sent'), 40_000);

    const submitted = recipients.map((to) => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1)));
    expect(submitted.map((submits) => submits.length)).toEqual(recipients.map(() => 1));
    expect(sent.map((row) => row.provider_id)).toEqual(submitted.map((submits) => submits[0].messageId));
    expect(await query(env, 'SELECT id FROM outbox')).toEqual([]);
  }, 45_000);

  it('keeps the account balance equal to its ledger', () => {
    const balance = START_BALANCE - COST * SENDS;

    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance, ledger_sum: balance, consistent: true });
  });
});
