import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { FakeSmsc } from './support/fake-smsc.js';
import { freePort, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';

const SECRET = 'shutdown-e2e-secret-0123456789abcdef01234';
const SENDS = 20;
const DEADLINE_MS = 8_000;

const recipient = (n: number) => `+2250709${String(n).padStart(6, '0')}`;
const recipients = (from: number) => Array.from({ length: SENDS }, (_, n) => recipient(from + n));
const sendBody = (to: string) => JSON.stringify({ channel: 'SMS', to, message: 'Code ##OTP##', otp_expiry: 3600 });

/** A running server on its own database, with one account; `server` is replaced by `restart()`. */
async function startService(extraEnv: Record<string, string> = {}) {
  const database = await createTestDatabase();
  const port = await freePort();
  const env = { ...database.env, PORT: String(port), NODE_ENV: 'production', PUBLIC_URL: 'https://sms.example.com', LOG_LEVEL: 'warn', JWT_SECRET: SECRET, OTP_SECRET: SECRET, ...extraEnv };
  const created = runCli(env, 'account:create', '--name', 'Shutdown', '--balance', '1000');
  if (created.status !== 0) throw new Error(`account:create failed: ${created.stderr}`);
  const account = created.json as { account_id: string; api_key: string };
  // keeps its connections open between requests, as a load balancer does
  const agent = new Agent({ keepAlive: true });
  const service = {
    database,
    env,
    port,
    account,
    agent,
    server: undefined as ServerProcess | undefined,
    async restart() {
      service.server = await startServer(env);
      if (!service.server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${service.server.stderr()}`);
    },
    /** Status 0 when no answer came (the connection was refused or dropped). */
    send(to: string): Promise<number> {
      const { request, body, answered } = post(port, account.api_key, to, agent);
      request.end(body);
      return answered.then(({ status }) => status, () => 0);
    },
    /** Kills the server and removes its database. */
    async remove() {
      await service.server?.stop('SIGKILL');
      agent.destroy();
      await database.drop();
    },
    /** SIGTERM, then the exit code and how long the process took to exit. */
    async terminate(): Promise<{ code: number | null; withinDeadline: boolean }> {
      const signalled = Date.now();
      const code = await service.server!.stop('SIGTERM');
      return { code, withinDeadline: Date.now() - signalled < DEADLINE_MS };
    },
  };
  await service.restart();
  return service;
}

/** POST /v1/otp/send over node:http, its body left to the caller to write; answered with the status and the body. */
function post(port: number, apiKey: string, to: string, agent: Agent | false, headers: OutgoingHttpHeaders = {}) {
  const body = sendBody(to);
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    agent,
    method: 'POST',
    path: '/v1/otp/send',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Content-Length': body.length, ...headers },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
  });
  return { request, body, answered };
}

/** A send whose headers the server has taken (it answered 100 Continue) and whose body waits for `finish()`. */
async function startHeldSend(port: number, apiKey: string, to: string) {
  const { request, body, answered } = post(port, apiKey, to, false, { Expect: '100-continue' });
  answered.catch(() => undefined);
  await new Promise((resolve) => request.once('continue', resolve));
  request.write(body.slice(0, 10));
  return { finish: () => (request.end(body.slice(10)), answered) };
}

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

describe('SIGTERM with requests in flight', () => {
  let service: Awaited<ReturnType<typeof startService>>;

  beforeAll(async () => {
    service = await startService();
  }, 60_000);

  afterAll(() => service?.remove(), 30_000);

  it('answers every request it took, refuses new connections, and exits 0 within 8 s', async () => {
    const { port, account } = service;
    const held = await startHeldSend(port, account.api_key, recipient(0));
    const sends = recipients(1).map((to) => service.send(to));
    await Promise.race(sends);

    const exit = service.terminate();
    await until(() => refusesConnections(port), Boolean, 5000);
    const heldAnswer = await held.finish();
    const statuses = await Promise.all(sends);
    const answered = statuses.filter((status) => status !== 0);

    expect(heldAnswer.status).toBe(200);
    expect(JSON.parse(heldAnswer.body)).toMatchObject({ status: 200, data: { uniq_id: expect.any(String) } });
    expect(answered).toEqual(answered.map(() => 200));
    expect(await exit).toEqual({ code: 0, withinDeadline: true });
    // nothing was done for a request that got no answer, and every request served was counted against the rate limit
    const [{ otps }] = await query(service.env, 'SELECT COUNT(*) AS otps FROM otp WHERE account_id = ?', [account.account_id]);
    const [{ hits }] = await query(service.env, 'SELECT SUM(hits) AS hits FROM rate_limit_window');
    expect(Number(otps)).toBe(answered.length + 1);
    expect(Number(hits)).toBeGreaterThanOrEqual(answered.length + 1);
  }, 30_000);
});

describe('SIGTERM with SHUTDOWN_DRAIN_MS', () => {
  const DRAIN_MS = 2000;
  let service: Awaited<ReturnType<typeof startService>>;
  const health = async () => {
    const response = await fetch(`http://127.0.0.1:${service.port}/health`);
    return { status: response.status, body: (await response.json()) as { data?: unknown } };
  };

  beforeAll(async () => {
    service = await startService({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS) });
  }, 60_000);

  afterAll(() => service?.remove(), 30_000);

  it('fails readiness at once while it still serves for the drain, then closes its listener and exits 0', async () => {
    const { port } = service;
    expect((await health()).status).toBe(200);

    const signalled = Date.now();
    const exit = service.server!.stop('SIGTERM');
    const draining = await until(health, (answer) => answer.status === 503, 1000, 20);
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    const sent = await service.send(recipient(200));
    const servingUntil = Date.now();
    await until(() => refusesConnections(port), Boolean, DRAIN_MS + 5000, 20);
    const closedAfterMs = Date.now() - signalled;

    expect(draining.body).toEqual({ status: 503, message: 'service_indisponible', data: { database: { status: 'up' }, outbox: { status: 'up' }, shutdown: { status: 'down' } } });
    expect(live.status).toBe(200);
    expect(sent).toBe(200);
    expect(servingUntil - signalled).toBeLessThan(DRAIN_MS);
    expect(closedAfterMs).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(await exit).toBe(0);
  }, 30_000);
});

describe('SIGTERM while the dispatcher waits on the SMSC', () => {
  const smsc = new FakeSmsc();
  const phones = recipients(100);
  let service: Awaited<ReturnType<typeof startService>>;
  const messages = () =>
    query(service.env, 'SELECT recipient, status, provider_id FROM message_out WHERE account_id = ? ORDER BY recipient', [service.account.account_id]);

  beforeAll(async () => {
    await smsc.start();
    // entries left claimed would be offered again after 5 s, and the SMSC would see them twice
    service = await startService({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, OUTBOX_LEASE_SECONDS: '5' });
    await until(() => smsc.binds, (binds) => binds > 0);
  }, 60_000);

  afterAll(async () => {
    await service?.remove();
    await smsc?.stop();
  }, 30_000);

  it('settles the messages it handed over, unbinds, exits 0 within 8 s, and delivers each message once after a restart', async () => {
    smsc.submitDelayMs = 1000;
    const statuses = await Promise.all(phones.map((to) => service.send(to)));
    await until(() => smsc.submits.length, (submitted) => submitted > 0);

    expect(statuses).toEqual(phones.map(() => 200));
    expect(await service.terminate()).toEqual({ code: 0, withinDeadline: true });
    expect(smsc.unbinds).toBe(1);
    const beforeRestart = new Map(smsc.submits.map((submit) => [`+${submit.destinationAddr}`, submit.messageId]));
    const settled = (await messages()).filter((row) => beforeRestart.has(String(row.recipient)));
    expect(settled).toEqual([...beforeRestart].sort().map(([to, messageId]) => ({ recipient: to, status: 'sent', provider_id: messageId })));

    smsc.submitDelayMs = 0;
    await service.restart();
    const sent = await until(messages, (rows) => rows.length === SENDS && rows.every((row) => row.status === 'sent'), 20_000);
    const submitted = phones.map((to) => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1)).length);
    expect(submitted).toEqual(phones.map(() => 1));
    expect(sent.map((row) => row.provider_id)).toEqual(
      phones.map((to) => smsc.submits.find((submit) => submit.destinationAddr === to.slice(1))?.messageId),
    );
    expect(await query(service.env, 'SELECT id FROM outbox')).toEqual([]);
  }, 60_000);

  it('exits 0 within 8 s while it waits to reconnect to an SMSC that is gone', async () => {
    await smsc.stop();
    await until(() => service.server!.stdout(), (log) => log.includes('reconnecting'));

    expect(await service.terminate()).toEqual({ code: 0, withinDeadline: true });
  }, 30_000);
});
