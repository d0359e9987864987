import { SmsRoutes } from '../src/routing/sms-routes.service.js';
import { FakeSmsc } from './support/fake-smsc.js';
import { callInstance, createAccount } from './support/instance-calls.js';
import { productionEnv, startInstances, type ServerProcess } from './support/processes.js';
import { connector, routingFile, submitsTo } from './support/routing.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';

const SECRET = 'sms-routing-reload-secret-0123456789abcdef';
const LOT_SIZE = 400;

const member = (n: number) => `+2250103${String(n).padStart(6, '0')}`;

/** SIGHUP makes a server process read SMS_ROUTING_FILE again: a good file swaps the table under traffic, a bad one is refused. */
describe(`${SmsRoutes.name} reloaded on SIGHUP`, () => {
  const first = new FakeSmsc();
  const second = new FakeSmsc();
  let database: TestDatabase;
  let env: Record<string, string>;
  let file: string;
  let server: ServerProcess & { base: string };
  let account: { account_id: string; api_key: string };

  const tableTo = (id: string) => ({
    connectors: [connector('first', first), connector('second', second)].filter((each) => each.id === id),
    routes: [{ name: 'all', targets: [{ connector: id }] }],
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    await Promise.all([first.start(), second.start()]);
    first.submitDelayMs = 5;
    file = routingFile(tableTo('first'));
    env = productionEnv(database.env, SECRET, { SMS_ROUTING_FILE: file });
    [server] = await startInstances(env, 1);
    await until(() => first.binds, (binds) => binds > 0);
    account = createAccount(env, 'Reload', '100000');
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([first.stop(), second.stop()]);
    await database?.drop();
  }, 60_000);

  const sendLot = async (to: string[]) => {
    const answer = await callInstance([server.base], 0, { method: 'POST', path: '/v1/sms/send', key: account.api_key, body: { to, message: 'Votre colis arrive.' } });
    expect(answer.body.data).toEqual(expect.objectContaining({ count: to.length }));
  };
  const sentCount = async () =>
    Number((await query(env, "SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND status = 'sent'", [account.account_id]))[0]!.n);

  it('moves the traffic to the new table while a lot goes out, each message taken once, the connector that left unbound', async () => {
    const recipients = Array.from({ length: LOT_SIZE }, (_, n) => member(n));

    await sendLot(recipients);
    await until(() => first.submits.length, (count) => count >= 50, 30_000, 5);
    routingFile(tableTo('second'), file);
    process.kill(server.pid, 'SIGHUP');
    await until(sentCount, (count) => count === LOT_SIZE, 60_000, 100);

    const taken = recipients.map((to) => submitsTo(first, to).length + submitsTo(second, to).length);
    expect(taken.filter((count) => count !== 1)).toEqual([]);
    expect(second.submits.length).toBeGreaterThan(0);
    await until(() => first.unbinds, (unbinds) => unbinds > 0);
  }, 90_000);

  it('refuses a bad file, logs its problems and keeps the table in force', async () => {
    routingFile({ connectors: [connector('second', second)], routes: [{ name: 'all', targets: [{ connector: 'third' }] }] }, file);
    process.kill(server.pid, 'SIGHUP');
    await until(() => server.stdout(), (out) => out.includes('routing file refused'));

    const refusal = server
      .stdout()
      .split('\n')
      .filter((line) => line.includes('routing file refused'))
      .map((line) => JSON.parse(line) as { file: string; problems: string[] });
    expect(refusal).toEqual([expect.objectContaining({ file, problems: ['routes[0].targets[0].connector (line 7): unknown connector "third"'] })]);
    const to = member(LOT_SIZE);
    await sendLot([to]);
    await until(() => submitsTo(second, to).length, (count) => count === 1);
  }, 60_000);
});
