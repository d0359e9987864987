import { FakeSmsc } from '../support/fake-smsc.js';
import { callInstance, createAccount } from '../support/instance-calls.js';
import { productionEnv, startInstances, type ServerProcess } from '../support/processes.js';
import { connector, routingFile, submitsTo } from '../support/routing.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';

const SECRET = 'sms-routing-two-instances-secret-0123456789';
const SENDS = 10;
const RECIPIENTS = 100;

const recipient = (send: number, n: number) => `+2250709${String(send * 1000 + n).padStart(6, '0')}`;

/** Two server processes on one MariaDB, each bound to two SMSCs of one round_robin route: the outbox is shared. */
describe('SMS routing on two instances sharing one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const orange = new FakeSmsc();
  const agg = new FakeSmsc();
  const servers: ServerProcess[] = [];
  const bases: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await Promise.all([orange.start(), agg.start()]);
    // slow enough that both instances hold batches at once
    orange.submitDelayMs = 2;
    agg.submitDelayMs = 2;
    const file = routingFile({
      connectors: [connector('orange', orange), connector('agg', agg)],
      routes: [{ name: 'ci', match: { prefixes: ['+225'] }, strategy: 'round_robin', targets: [{ connector: 'orange' }, { connector: 'agg' }] }],
    });
    env = productionEnv(database.env, SECRET, { SMS_ROUTING_FILE: file });
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
    await until(() => [orange.binds, agg.binds], (binds) => binds.every((count) => count >= 2));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all([orange.stop(), agg.stop()]);
    await database?.drop();
  }, 60_000);

  it('hands each message over once, through one connector or the other, whichever instance claims it', async () => {
    const account = createAccount(env, 'Routed', '100000');
    const sends = Array.from({ length: SENDS }, (_, send) => Array.from({ length: RECIPIENTS }, (_, n) => recipient(send, n)));

    const answers = await Promise.all(
      sends.map((to, send) => callInstance(bases, send, { method: 'POST', path: '/v1/sms/send', key: account.api_key, body: { to, message: 'Soldes' } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(SENDS).fill(200));

    const all = sends.flat();
    await until(
      async () => Number((await query(env, "SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND status = 'sent'", [account.account_id]))[0]!.n),
      (sent) => sent === all.length,
      90_000,
      250,
    );
    expect(all.filter((to) => submitsTo(orange, to).length + submitsTo(agg, to).length !== 1)).toEqual([]);
    expect(orange.submits.length).toBeGreaterThan(0);
    expect(agg.submits.length).toBeGreaterThan(0);
    const providers = await query(env, 'SELECT provider, COUNT(*) AS n FROM message_out WHERE account_id = ? GROUP BY provider ORDER BY provider', [account.account_id]);
    expect(providers.map((row) => [row.provider, Number(row.n)])).toEqual([
      ['agg', agg.submits.length],
      ['orange', orange.submits.length],
    ]);
  }, 150_000);
});
