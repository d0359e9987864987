import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const SECRET = 'webhook-crash-secret-0123456789abcdef01234';
const SENDS = 80;

/** Webhook events in flight when the server is killed with SIGKILL: after a restart each is delivered, with its id. */
describe('webhook delivery across a server killed with SIGKILL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  let inFlightAtKill: string[] = [];

  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };
  const call = (method: string, path: string, body?: object) =>
    fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
  const events = async () =>
    (await query(env, 'SELECT id, state FROM webhook_event WHERE account_id = ? ORDER BY id', [account.account_id])) as Array<{ id: string; state: string }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    // while the first server lives, the receiver takes requests and never answers them
    receiver.on('/hook', () => undefined);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // a message the killed server had claimed is sent, and its event written, once its outbox lease runs out
    env = productionEnv(database.env, SECRET, {
      PORT: String(port),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_TIMEOUT_MS: '3000',
      OUTBOX_LEASE_SECONDS: '5',
    });
    account = runCli(env, 'account:create', '--name', 'Crash Webhooks', '--balance', '1000').json as typeof account;
    await serve();
    expect((await call('PUT', '/v1/account/webhook', { url: receiver.url('/hook'), events: ['sms.sent'] })).status).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, n) =>
        call('POST', '/v1/otp/send', { channel: 'SMS', to: `+2250709${String(n).padStart(6, '0')}`, message: 'Code ##OTP##' }).then((r) => r.status),
      ),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    await until(() => receiver.received.length, (count) => count >= 10);
    inFlightAtKill = receiver.received.map((hook) => String(hook.headers['webhook-id']));
    await server?.stop('SIGKILL');

    receiver.on('/hook', (_, response) => response.writeHead(204).end());
    await serve();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.stop();
    await database?.drop();
  });

  it('delivers every event at least once after the restart, those in flight again with the same webhook-id and body', async () => {
    const settled = await until(events, (rows) => rows.length === SENDS && rows.every((row) => row.state === 'delivered'), 45_000, 250);
    const ids = settled.map((row) => row.id);
    const received = new Map<string, string[]>();
    for (const hook of receiver.received) {
      const id = String(hook.headers['webhook-id']);
      expect(JSON.parse(hook.body).id).toBe(id);
      received.set(id, [...(received.get(id) ?? []), hook.body]);
    }
    expect([...received.keys()].sort()).toEqual([...ids].sort());
    expect(inFlightAtKill.length).toBeGreaterThan(0);
    for (const id of inFlightAtKill) {
      const bodies = received.get(id)!;
      expect(bodies.length).toBeGreaterThanOrEqual(2);
      expect(new Set(bodies).size).toBe(1);
    }
    // the attempts cut short by the kill were never recorded; each event has one recorded success
    const successes = await query(
      env,
      'SELECT COUNT(*) AS count FROM webhook_attempt a JOIN webhook_event e ON e.id = a.event_id WHERE e.account_id = ? AND a.status_code = 204',
      [account.account_id],
    );
    expect(Number(successes[0]!.count)).toBe(SENDS);
  }, 60_000);
});
