import { callInstance, createAccount, countByStatus } from '../support/instance-calls.js';
import { productionEnv, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'galera-workers-e2e-secret-0123456789abcdef';
const INSTANCES = 3;
const CAMPAIGNS = 3;
const RECIPIENTS = 2000;
/** The price of one SMS, in hundredths as the ledger keeps it. */
const PRICE = 250;
const SENDS = 150;

/**
 * The campaign and webhook workers of three instances, each on its own node of a Galera cluster (DB_HOSTS, see
 * startInstances), taking the same jobs: each is done once, whichever node its claim was certified on.
 */
describe('the campaign and webhook workers of three instances on a three-node Galera cluster', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let receiver: WebhookReceiver;
  const servers: Array<ServerProcess & { base: string }> = [];

  const call = (instance: number, method: string, path: string, key: string, body?: object) =>
    callInstance(
      servers.map((server) => server.base),
      instance,
      { method, path, key, body, timeoutMs: 60_000 },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    // answers held past the dispatchers' 500 ms poll: while one instance holds a batch of events, the others claim the next
    receiver.on('/hook', (_, response) => setTimeout(() => response.writeHead(200).end('ok'), 1_000));
    env = productionEnv(database.env, SECRET, { LOG_LEVEL: 'info', CAMPAIGN_LEASE_SECONDS: '5', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    servers.push(...(await startInstances(env, INSTANCES)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await receiver?.stop();
    await database?.drop();
  }, 60_000);

  it(`launches ${CAMPAIGNS} campaigns of ${RECIPIENTS} once each and writes every recipient once when the three run them`, async () => {
    const account = createAccount(env, 'Galera Campaigns', '100000');
    const drafts: string[] = [];
    for (let campaign = 0; campaign < CAMPAIGNS; campaign++) {
      const group = (await call(campaign, 'POST', '/v1/group', account.api_key, { name: `Groupe ${campaign}` })).body.data.id as string;
      for (let start = 0; start < RECIPIENTS; start += 1000) {
        const phones = Array.from({ length: 1000 }, (_, n) => `+22505${10_000_000 + campaign * RECIPIENTS + start + n}`);
        expect((await call(start / 1000, 'POST', `/v1/group/${group}/contacts`, account.api_key, { phones })).status).toBe(200);
      }
      const body = { name: `Soldes ${campaign}`, message: 'Soldes ##NAME##', group_ids: [group], append_opt_out: false };
      drafts.push((await call(campaign, 'POST', '/v1/campaign', account.api_key, body)).body.data.id as string);
    }

    // each draft launched through the three at once; which instances then write chunks shows in `claimed_by`
    const workers = new Set<string>();
    let running = true;
    const watching = (async () => {
      while (running) {
        const held = await query(env, 'SELECT claimed_by FROM campaign WHERE account_id = ? AND claimed_by IS NOT NULL', [account.account_id]);
        for (const row of held) workers.add(String(row.claimed_by));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      const launches = await Promise.all(
        drafts.flatMap((id) =>
          Array.from({ length: INSTANCES }, (_, instance) => call(instance, 'POST', `/v1/campaign/${id}/launch`, account.api_key, {})),
        ),
      );
      expect(countByStatus(launches)).toEqual({ 200: CAMPAIGNS, 409: CAMPAIGNS * (INSTANCES - 1) });
      const started = Date.now();
      for (const id of drafts) {
        await until(
          async () => (await query(env, 'SELECT status FROM campaign WHERE id = ?', [id]))[0]!.status,
          (status) => status === 'done',
          180_000,
          200,
        );
      }
      // which instances write chunks is up to the launches' winners and the workers' polls: printed, not required
      console.log(
        `${CAMPAIGNS} campaigns of ${RECIPIENTS} launched through the three at once: all done ${Date.now() - started} ms after the launches, ` +
          `chunks written by ${workers.size} instances`,
      );
    } finally {
      running = false;
      await watching;
    }

    const written = await query(
      env,
      'SELECT campaign_id, COUNT(*) AS n, COUNT(DISTINCT recipient) AS people FROM message_out WHERE account_id = ? GROUP BY campaign_id ORDER BY campaign_id',
      [account.account_id],
    );
    expect(written.map((row) => [row.campaign_id, Number(row.n), Number(row.people)])).toEqual(
      [...drafts].sort().map((id) => [id, RECIPIENTS, RECIPIENTS]),
    );
    const debits = await query(env, "SELECT reference, amount FROM ledger_entry WHERE account_id = ? AND kind = 'debit' ORDER BY reference", [
      account.account_id,
    ]);
    expect(debits.map((row) => [row.reference, Number(row.amount)])).toEqual([...drafts].sort().map((id) => [id, -RECIPIENTS * PRICE]));
    const [balance] = await query(
      env,
      'SELECT balance, (SELECT SUM(amount) FROM ledger_entry WHERE account_id = a.id) AS ledger FROM account a WHERE id = ?',
      [account.account_id],
    );
    expect([Number(balance!.balance), Number(balance!.ledger)]).toEqual([
      10_000_000 - CAMPAIGNS * RECIPIENTS * PRICE,
      10_000_000 - CAMPAIGNS * RECIPIENTS * PRICE,
    ]);

    const handOvers = new Map<string, number>();
    for (const server of servers) {
      for (const [, id] of server.stdout().matchAll(/"messageId":"([^"]+)"/g)) handOvers.set(id!, (handOvers.get(id!) ?? 0) + 1);
    }
    const ids = (await query(env, "SELECT uniq_id FROM message_out WHERE account_id = ? AND status = 'sent'", [account.account_id])).map((row) =>
      String(row.uniq_id),
    );
    expect(ids).toHaveLength(CAMPAIGNS * RECIPIENTS);
    expect(ids.filter((id) => handOvers.get(id) !== 1)).toEqual([]);
  }, 300_000);

  it(`POSTs each webhook event of ${SENDS} sends spread over the three exactly once, the three dispatching`, async () => {
    const account = createAccount(env, 'Galera Webhooks', '1000');
    expect((await call(0, 'PUT', '/v1/account/webhook', account.api_key, { url: receiver.url('/hook'), events: ['sms.sent'] })).status).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, n) =>
        call(n, 'POST', '/v1/otp/send', account.api_key, { channel: 'SMS', to: `+2250711${String(n).padStart(6, '0')}`, message: 'Code ##OTP##' }),
      ),
    );
    expect(countByStatus(answers)).toEqual({ 200: SENDS });

    const events = await until(
      async () =>
        (await query(env, 'SELECT id, state, claimed_by FROM webhook_event WHERE account_id = ?', [account.account_id])) as Array<
          Record<string, string>
        >,
      (rows) => rows.length === SENDS && rows.every((row) => row.state === 'delivered'),
      90_000,
      250,
    );
    const ids = receiver.at('/hook').map((hook) => String(hook.headers['webhook-id']));
    expect(ids).toHaveLength(SENDS);
    expect(new Set(ids)).toEqual(new Set(events.map((row) => row.id)));
    const attempts = await query(env, 'SELECT event_id, COUNT(*) AS count FROM webhook_attempt GROUP BY event_id HAVING COUNT(*) > 1');
    expect(attempts).toEqual([]);
    // a settled event keeps the instance that settled it
    const byInstance = Object.values(
      events.reduce<Record<string, number>>((counts, row) => ({ ...counts, [row.claimed_by!]: (counts[row.claimed_by!] ?? 0) + 1 }), {}),
    ).sort((a, b) => b - a);
    console.log(`${SENDS} webhook events, each POSTed once, settled by ${byInstance.length} instances: ${byInstance.join(', ')}`);
    expect(byInstance.length).toBeGreaterThan(1);
  }, 120_000);
});
