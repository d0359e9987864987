import { checkedFetch } from './support/openapi-answers.js';
import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const SECRET = 'import-crash-secret-0123456789abcdef0123456';
const ROWS = 50_000;

/** A CSV import under way when the server is killed with SIGKILL: after a restart it goes on from its last chunk and finishes once. */
describe('a CSV import across a server killed with SIGKILL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  let jobId: string;
  let atKill: { position: number; attempts: number };

  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };
  const call = (method: string, path: string, body?: string, type = 'application/json') =>
    checkedFetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': type },
      body,
      signal: AbortSignal.timeout(20_000),
    });
  const progress = async () => {
    const [row] = await query(env, 'SELECT status, position, attempts FROM contact_import WHERE id = ?', [jobId]);
    return { status: String(row!.status), position: Number(row!.position), attempts: Number(row!.attempts) };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // the job the killed server held is taken up once its lease runs out
    env = productionEnv(database.env, SECRET, { PORT: String(port), CONTACT_IMPORT_LEASE_SECONDS: '2', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    account = runCli(env, 'account:create', '--name', 'Crash Import', '--balance', '0').json as typeof account;
    await serve();
    const webhook = await call('PUT', '/v1/account/webhook', JSON.stringify({ url: receiver.url('/imports'), events: ['contact_import.completed'] }));
    expect(webhook.status).toBe(200);

    const rows = Array.from({ length: ROWS }, (_, n) => `+22505${10_000_000 + n},Contact ${n}`).join('\n');
    const answer = await call('POST', '/v1/contact/import', `phone,name\n${rows}\n`, 'text/csv');
    expect(answer.status).toBe(202);
    jobId = ((await answer.json()) as { data: { id: string } }).data.id;
    atKill = await until(progress, (job) => job.position > 0, 30_000, 10);
    await server?.stop('SIGKILL');
    await serve();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.stop();
    await database?.drop();
  });

  it('was killed half-way through the file', () => {
    expect(atKill.position).toBeGreaterThan(0);
    expect(atKill.position).toBeLessThan(ROWS);
    expect(atKill.attempts).toBe(1);
  });

  it('finishes once after the restart, every row imported once, and reports it once', async () => {
    await until(progress, (job) => job.status === 'completed', 60_000, 100);
    const job = ((await (await call('GET', `/v1/contact/import/${jobId}`)).json()) as { data: Record<string, unknown> }).data;

    expect(job).toEqual(expect.objectContaining({ status: 'completed', rows: ROWS, created: ROWS, updated: 0, duplicates: 0, invalid: 0, errors: [] }));
    expect((await progress()).attempts).toBe(2);
    const [contacts] = await query(env, 'SELECT COUNT(*) AS n FROM contact WHERE account_id = ?', [account.account_id]);
    expect(Number(contacts!.n)).toBe(ROWS);
    const events = await query(env, "SELECT id FROM webhook_event WHERE account_id = ? AND type = 'contact_import.completed'", [account.account_id]);
    expect(events).toHaveLength(1);
    const hooks = await until(() => receiver.at('/imports'), (received) => received.length >= 1);
    expect(JSON.parse(hooks[0]!.body).data).toEqual(expect.objectContaining({ id: jobId, status: 'completed', rows: ROWS, created: ROWS }));
  }, 90_000);
});
