import { callInstance } from '../support/instance-calls.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';

const SECRET = 'campaign-two-instances-secret-0123456789ab';
const CONCURRENT = 10;
const PRICE = 250;

/** Campaigns launched, run and cancelled through two instances on one MariaDB, both running the campaign worker. */
describe('campaigns on two instances sharing one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];
  let account: { account_id: string; api_key: string };

  const call = (instance: number, method: string, path: string, body?: object) =>
    callInstance(bases, instance, { method, path, key: account.api_key, body, timeoutMs: 60_000 });
  const groupOf = async (from: number, count: number) => {
    const id = (await call(0, 'POST', '/v1/group', { name: `Groupe ${from}` })).body.data.id as string;
    for (let start = 0; start < count; start += 1000) {
      const phones = Array.from({ length: Math.min(1000, count - start) }, (_, n) => `+22505${10_000_000 + from + start + n}`);
      expect((await call(1, 'POST', `/v1/group/${id}/contacts`, { phones })).status).toBe(200);
    }
    return id;
  };
  const draft = async (group: string) =>
    (await call(0, 'POST', '/v1/campaign', { name: 'Soldes', message: 'Soldes ##NAME##', group_ids: [group], append_opt_out: false })).body.data.id as string;
  const campaignRow = async (id: string) => (await query(env, 'SELECT status, position, recipients, claimed_by FROM campaign WHERE id = ?', [id]))[0]!;
  const messagesOf = async (id: string) => {
    const [row] = await query(env, 'SELECT COUNT(*) AS n, COUNT(DISTINCT recipient) AS people FROM message_out WHERE campaign_id = ?', [id]);
    return { n: Number(row!.n), people: Number(row!.people) };
  };
  const ledger = async () => {
    const [row] = await query(env, 'SELECT balance, (SELECT SUM(amount) FROM ledger_entry WHERE account_id = a.id) AS total FROM account a WHERE id = ?', [
      account.account_id,
    ]);
    expect(Number(row!.balance)).toBe(Number(row!.total));
    return Number(row!.balance);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // short leases: what a killed instance held (its campaign, the messages it was handing over) is taken up soon
    env = productionEnv(database.env, SECRET, { CAMPAIGN_LEASE_SECONDS: '5', OUTBOX_LEASE_SECONDS: '5' });
    account = runCli(env, 'account:create', '--name', 'Two Campaign Workers', '--balance', '100000').json as typeof account;
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('launches a draft once for 10 concurrent launches through both instances, and debits it once', async () => {
    const id = await draft(await groupOf(0, 50));
    const before = await ledger();

    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, n) => call(n, 'POST', `/v1/campaign/${id}/launch`, {})));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.errors)).toEqual(
      Array(CONCURRENT - 1).fill(['status: la campagne est déjà lancée']),
    );
    expect(await ledger()).toBe(before - 50 * PRICE);
    await until(() => campaignRow(id), (row) => row.status === 'done', 60_000, 100);
    expect(await messagesOf(id)).toEqual({ n: 50, people: 50 });
  }, 90_000);

  it('writes three campaigns run at once by both workers, each recipient once', async () => {
    const ids = [await draft(await groupOf(1000, 3000)), await draft(await groupOf(5000, 3000)), await draft(await groupOf(9000, 3000))];

    await Promise.all(ids.map(async (id, n) => expect((await call(n, 'POST', `/v1/campaign/${id}/launch`, {})).status).toBe(200)));

    for (const id of ids) {
      await until(() => campaignRow(id), (row) => row.status === 'done', 120_000, 100);
      expect(await messagesOf(id)).toEqual({ n: 3000, people: 3000 });
    }
    await ledger();
  }, 180_000);

  it('cancelled through one instance while the other writes it: no chunk after the cancel, the rest refunded once', async () => {
    const id = await draft(await groupOf(20_000, 6000));
    const before = await ledger();
    expect((await call(0, 'POST', `/v1/campaign/${id}/launch`, {})).status).toBe(200);
    await until(() => campaignRow(id), (row) => Number(row.position) > 0, 60_000, 5);

    const cancelled = await call(1, 'POST', `/v1/campaign/${id}/cancel`, { reason: 'Arrêt' });

    expect(cancelled.status).toBe(200);
    const written = Number((await campaignRow(id)).position);
    expect(written).toBeLessThan(6000);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', refunded: ((6000 - written) * PRICE) / 100 });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await messagesOf(id)).toEqual({ n: written, people: written });
    expect(await ledger()).toBe(before - written * PRICE);
  }, 120_000);

  // last: it kills an instance
  it('runs one campaign on both instances: the one writing it is killed, the other takes it up from its last chunk; each recipient once', async () => {
    const id = await draft(await groupOf(40_000, 6000));
    const before = await ledger();
    expect((await call(0, 'POST', `/v1/campaign/${id}/launch`, {})).status).toBe(200);

    // the chunk from `position` commits under the claim of the instance that claimed_by names (host:pid:…)
    const claimed = await until(() => campaignRow(id), (row) => row.claimed_by !== null, 60_000, 2);
    const first = servers.find((server) => String(claimed.claimed_by).split(':')[1] === String(server.pid));
    expect(first).toBeDefined();
    await until(() => campaignRow(id), (row) => Number(row.position) > Number(claimed.position), 60_000, 2);
    await first!.stop('SIGKILL');
    // what is left is written by the other instance alone
    expect(Number((await campaignRow(id)).position)).toBeLessThan(6000);

    await until(() => campaignRow(id), (row) => row.status === 'done', 60_000, 100);
    expect(await messagesOf(id)).toEqual({ n: 6000, people: 6000 });
    expect(await ledger()).toBe(before - 6000 * PRICE);
  }, 120_000);
});
