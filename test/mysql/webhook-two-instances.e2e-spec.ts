import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'webhook-two-instances-secret-0123456789ab';
const SENDS = 120;

/** Both instances dispatch webhook events from one MariaDB: each event is attempted once, by one of them. */
describe('webhook dispatch by two instances on one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let receiver: WebhookReceiver;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];
  let account: { account_id: string; api_key: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    // answers held past the dispatchers' 500 ms poll: while one instance holds a batch of events, the other claims the next
    receiver.on('/hook', (_, response) => setTimeout(() => response.writeHead(200).end('ok'), 1_000));
    env = productionEnv(database.env, SECRET, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    account = runCli(env, 'account:create', '--name', 'Two Webhooks', '--balance', '1000').json as typeof account;
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await receiver?.stop();
    await database?.drop();
  });

  it('delivers each of the events of sends split over both instances exactly once', async () => {
    const call = (instance: number, method: string, path: string, body: object) =>
      fetch(`${bases[instance % 2]}${path}`, {
        method,
        headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    expect((await call(0, 'PUT', '/v1/account/webhook', { url: receiver.url('/hook'), events: ['sms.sent'] })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, n) =>
        call(n, 'POST', '/v1/otp/send', { channel: 'SMS', to: `+2250710${String(n).padStart(6, '0')}`, message: 'Code ##OTP##' }).then((r) => r.status),
      ),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(SENDS);

    const events = await until(
      async () => (await query(env, 'SELECT id, state FROM webhook_event WHERE account_id = ?', [account.account_id])) as Array<{ id: string; state: string }>,
      (rows) => rows.length === SENDS && rows.every((row) => row.state === 'delivered'),
      60_000,
      250,
    );
    const ids = receiver.received.map((hook) => String(hook.headers['webhook-id']));
    expect(ids).toHaveLength(SENDS);
    expect(new Set(ids)).toEqual(new Set(events.map((row) => row.id)));
    const attempts = await query(env, 'SELECT event_id, COUNT(*) AS count FROM webhook_attempt GROUP BY event_id HAVING COUNT(*) > 1');
    expect(attempts).toEqual([]);
    // both instances took part: a settled event keeps the instance that settled it
    const owners = await query(env, 'SELECT COUNT(DISTINCT claimed_by) AS count FROM webhook_event WHERE account_id = ?', [account.account_id]);
    expect(Number(owners[0]!.count)).toBe(2);
  }, 90_000);
});
