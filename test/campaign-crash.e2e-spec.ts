import { checkedFetch } from './support/openapi-answers.js';
import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const SECRET = 'campaign-crash-secret-0123456789abcdef01234';
const RECIPIENTS = 50_000;
const PRICE = 2.5;

/** A 50,000-recipient campaign under way when the server is killed with SIGKILL: after a restart it goes on from its last chunk, writes every message once and finishes once. */
describe('a campaign across a server killed with SIGKILL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  let campaignId: string;
  let atKill: { status: string; position: number; attempts: number };
  const timings: Record<string, number> = {};

  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };
  const call = async (method: string, path: string, body?: string, type = 'application/json') => {
    const answer = await checkedFetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': type },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    return { status: answer.status, body: (await answer.json()) as { data: Record<string, unknown> } };
  };
  const progress = async () => {
    const [row] = await query(env, 'SELECT status, position, attempts FROM campaign WHERE id = ?', [campaignId]);
    return { status: String(row!.status), position: Number(row!.position), attempts: Number(row!.attempts) };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // the campaign, the outbox entries and a webhook event the killed server held are taken up once their lease runs out
    env = productionEnv(database.env, SECRET, {
      PORT: String(port),
      CAMPAIGN_LEASE_SECONDS: '2',
      OUTBOX_LEASE_SECONDS: '5',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_TIMEOUT_MS: '2500',
    });
    account = runCli(env, 'account:create', '--name', 'Crash Campaign', '--balance', String(RECIPIENTS * PRICE + 1000)).json as typeof account;
    await serve();
    const events = ['campaign.started', 'campaign.completed', 'campaign.cancelled'];
    expect((await call('PUT', '/v1/account/webhook', JSON.stringify({ url: receiver.url('/campaigns'), events }))).status).toBe(200);

    const group = (await call('POST', '/v1/group', JSON.stringify({ name: 'Tous' }))).body.data.id as string;
    const rows = Array.from({ length: RECIPIENTS }, (_, n) => `+22505${10_000_000 + n},Contact ${n}`).join('\n');
    const imported = (await call('POST', `/v1/contact/import?group_id=${group}`, `phone,name\n${rows}\n`, 'text/csv')).body.data.id as string;
    await until(() => call('GET', `/v1/contact/import/${imported}`), (job) => job.body.data.status === 'completed', 120_000, 200);

    const draft = await call('POST', '/v1/campaign', JSON.stringify({ name: 'Tout le monde', message: 'Bonjour ##NAME##', group_ids: [group], append_opt_out: false }));
    campaignId = draft.body.data.id as string;
    let started = Date.now();
    const launched = await call('POST', `/v1/campaign/${campaignId}/launch`, '{}');
    timings.launchMs = Date.now() - started;
    expect(launched).toMatchObject({ status: 200, body: { data: { status: 'running', amount: RECIPIENTS * PRICE, counts: { recipients: RECIPIENTS } } } });
    started = Date.now();
    atKill = await until(progress, (campaign) => campaign.position > 0, 60_000, 5);
    await server?.stop('SIGKILL');
    await serve();
    await until(progress, (campaign) => campaign.position === RECIPIENTS, 240_000, 50);
    timings.writtenMs = Date.now() - started;
    await until(progress, (campaign) => campaign.status === 'done', 240_000, 100);
    timings.doneMs = Date.now() - started;
  }, 420_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.stop();
    await database?.drop();
  });

  it('was killed part-way through the recipients', () => {
    expect(atKill.status).toBe('running');
    expect(atKill.position).toBeGreaterThan(0);
    expect(atKill.position).toBeLessThan(RECIPIENTS);
    expect(atKill.attempts).toBeGreaterThanOrEqual(1);
    process.stdout.write(
      `campaign of ${RECIPIENTS}: launch ${timings.launchMs} ms; killed at ${atKill.position}; after the launch, all written ${timings.writtenMs} ms, all handed over (done) ${timings.doneMs} ms\n`,
    );
  });

  it('wrote every recipient once after the restart, debited once, and reported its start and its end once', async () => {
    const [messages] = await query(env, 'SELECT COUNT(*) AS n, COUNT(DISTINCT recipient) AS people FROM message_out WHERE campaign_id = ?', [campaignId]);
    expect({ n: Number(messages!.n), people: Number(messages!.people) }).toEqual({ n: RECIPIENTS, people: RECIPIENTS });
    const [waiting] = await query(env, "SELECT COUNT(*) AS n FROM message_out WHERE campaign_id = ? AND status IN ('scheduled', 'pending')", [campaignId]);
    expect(Number(waiting!.n)).toBe(0);
    const [ledger] = await query(env, "SELECT COUNT(*) AS n, SUM(amount) AS total FROM ledger_entry WHERE account_id = ? AND kind = 'debit'", [account.account_id]);
    expect({ n: Number(ledger!.n), total: Number(ledger!.total) }).toEqual({ n: 1, total: -RECIPIENTS * PRICE * 100 });
    const [balance] = await query(env, 'SELECT balance, (SELECT SUM(amount) FROM ledger_entry WHERE account_id = a.id) AS ledger FROM account a WHERE id = ?', [account.account_id]);
    expect(Number(balance!.balance)).toBe(Number(balance!.ledger));
    const events = await query(env, 'SELECT type FROM webhook_event WHERE subject_id = ? ORDER BY sequence', [campaignId]);
    expect(events.map((event) => event.type)).toEqual(['campaign.started', 'campaign.completed']);
    // delivered at least once: an event in flight at the kill comes again with the same webhook-id, which receivers deduplicate on
    const received = () => receiver.at('/campaigns').map((hook) => ({ id: hook.headers['webhook-id'], type: JSON.parse(hook.body).type as string }));
    const hooks = await until(received, (got) => new Set(got.map((hook) => hook.type)).size === 2, 30_000);
    const byId = new Map(hooks.map((hook) => [hook.id, hook.type]));
    expect([...byId.values()].sort()).toEqual(['campaign.completed', 'campaign.started']);
    const done = (await call('GET', `/v1/campaign/${campaignId}`)).body.data;
    expect(done).toMatchObject({ status: 'done', counts: { recipients: RECIPIENTS, scheduled: 0, pending: 0 } });
  }, 60_000);
});
