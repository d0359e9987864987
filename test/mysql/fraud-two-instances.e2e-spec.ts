import { callInstance, countByStatus, createAccount as newAccount, type InstanceAnswer } from '../support/instance-calls.js';
import { productionEnv, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';

const SECRET = 'fraud-two-instances-secret-0123456789';
/** The refresh interval the instances run with; the documented bound whatever it is: 30 s. */
const REFRESH_MS = 1000;
const MAX_STALE_MS = 30_000;

interface Account {
  account_id: string;
  api_key: string;
}

const numberOf = (prefix: string, n: number) => `${prefix}${String(n).padStart(4, '0')}`;

/** The guard's settings cached by each of two server processes on one MariaDB: a change made through one applies on the other. */
describe('OTP fraud guard on two instances sharing one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];

  const call = (instance: number, account: Account, method: string, path: string, body?: object) => callInstance(bases, instance, { method, path, key: account.api_key, body });
  const send = (instance: number, account: Account, to: string, extra: object = {}) =>
    call(instance, account, 'POST', '/v1/otp/send', { channel: 'SMS', to, message: 'Votre code est ##OTP##', ...extra });
  /** Sends through `instance`, a new number of the prefix each time, until one is refused; how long it took. */
  const refusedAfter = async (instance: number, account: Account, prefix: string, first: number): Promise<{ ms: number; answer: InstanceAnswer }> => {
    const started = Date.now();
    let n = first;
    const answer = await until(() => send(instance, account, numberOf(prefix, n++)), (answer) => answer.status !== 200, MAX_STALE_MS + 5_000, 100);
    return { ms: Date.now() - started, answer };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    env = productionEnv(database.env, SECRET, { FRAUD_CACHE_REFRESH_MS: String(REFRESH_MS) });
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }, 60_000);

  it('refuses on the second instance a prefix put on the deny list through the first, within the refresh interval', async () => {
    const account = newAccount(env, 'Liste partagée', '1000');
    const prefix = '+225070707';
    expect((await send(1, account, numberOf(prefix, 1))).status).toBe(200);

    const listed = await call(0, account, 'POST', '/v1/fraud/list', { list: 'block', kind: 'prefix', value: prefix });
    expect(listed.status).toBe(201);
    expect((await send(0, account, numberOf(prefix, 2))).body.data.reasons).toEqual(['in_block_list']);
    const { ms, answer } = await refusedAfter(1, account, prefix, 3);

    expect(answer.body).toMatchObject({ status: 403, message: 'envoi_bloque', data: { reasons: ['in_block_list'] } });
    expect(ms).toBeLessThanOrEqual(MAX_STALE_MS);
  }, 60_000);

  it('sends again on the first instance to a prefix it blocked once the block is lifted through the second', async () => {
    const account = newAccount(env, 'Blocage partagé', '1000');
    const prefix = '+225050505';
    expect((await call(0, account, 'PUT', '/v1/fraud/policy', { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 2 } })).status).toBe(200);
    expect(countByStatus([await send(0, account, numberOf(prefix, 1)), await send(0, account, numberOf(prefix, 2))])).toEqual({ 200: 2 });
    const refused = await send(0, account, numberOf(prefix, 3));
    expect(refused.body.data.reasons).toEqual(['prefix_velocity']);
    expect((await send(1, account, numberOf(prefix, 4))).body.data.reasons).toEqual(['prefix_velocity']);

    const [block] = (await call(1, account, 'GET', '/v1/fraud/blocks?active=true')).body.data.items;
    expect((await call(1, account, 'DELETE', `/v1/fraud/blocks/${block.id}`)).status).toBe(200);
    const started = Date.now();
    const sent = await until(() => send(0, account, numberOf(prefix, 5)), (answer) => answer.status === 200, MAX_STALE_MS + 5_000, 100);

    expect(sent.body.data.uniq_id).toEqual(expect.any(String));
    expect(Date.now() - started).toBeLessThanOrEqual(MAX_STALE_MS);
  }, 60_000);

  it('accepts exactly the threshold of 50 simultaneous sends from one address split over both instances', async () => {
    const account = newAccount(env, 'Rafale', '1000');
    expect((await call(0, account, 'PUT', '/v1/fraud/policy', { modes: { velocity: 'enforce' }, thresholds: { ip_per_hour: 10 } })).status).toBe(200);

    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => send(n, account, numberOf(`+22507${1000 + n}`, n), { client_ip: '192.0.2.77' })));

    expect(countByStatus(answers)).toEqual({ 200: 10, 403: 40 });
    for (const answer of answers.filter((each) => each.status === 403)) expect(answer.body.data.reasons).toEqual(['ip_velocity']);
  }, 60_000);

  it('accepts no more than the threshold of a busy country through two instances each reserving sends ahead', async () => {
    const account = newAccount(env, 'Pays chargé', '5000');
    const policy = { modes: { velocity: 'enforce' }, thresholds: { country_per_10_min: 600, prefix_per_hour: 10_000 } };
    expect((await call(0, account, 'PUT', '/v1/fraud/policy', policy)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2 * REFRESH_MS)); // the second instance has read it

    const answers: InstanceAnswer[] = [];
    for (let wave = 0; wave < 700; wave += 50) {
      answers.push(...(await Promise.all(Array.from({ length: 50 }, (_, n) => send(n, account, numberOf('+225070702', wave + n))))));
    }
    const [row] = await queryServerDatabase(env, "SELECT counts FROM fraud_velocity_key WHERE account_id = ? AND kind = 'country'", [account.account_id]);
    const counted = String(row!.counts).split(',').reduce((sum, count) => sum + Number(count), 0);

    // a reservation left when a minute ends counts though never sent: a send or two of each instance's
    expect(countByStatus(answers)[200]).toBeGreaterThanOrEqual(596);
    expect(countByStatus(answers)[200]).toBeLessThanOrEqual(600);
    expect(counted).toBe(600);
    for (const answer of answers.filter((each) => each.status !== 200)) expect(answer.body.data.reasons).toEqual(['country_burst']);
  }, 120_000);
});
