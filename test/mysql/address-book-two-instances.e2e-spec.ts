import { callInstance } from '../support/instance-calls.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const SECRET = 'address-book-two-instances-secret-0123456';
const CONCURRENT = 20;

/** Two instances on one MariaDB write the same contacts at once: one contact per phone, one membership per contact. */
describe('the address book written by two instances on one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];
  let account: { account_id: string; api_key: string };

  const call = (instance: number, method: string, path: string, body?: object) => callInstance(bases, instance, { method, path, key: account.api_key, body });
  const contactsWith = async (phone: string) =>
    (await query(env, 'SELECT id FROM contact WHERE account_id = ? AND phone = ?', [account.account_id, phone])).length;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = productionEnv(database.env, SECRET);
    account = runCli(env, 'account:create', '--name', 'Two Address Books').json as typeof account;
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('adds one member and one contact for 20 concurrent adds of one phone to one group', async () => {
    const group = (await call(0, 'POST', '/v1/group', { name: 'Concurrence' })).body.data!.id as string;

    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, n) => call(n, 'POST', `/v1/group/${group}/contacts`, { phones: ['+2250700000001'] })));

    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));
    expect(answers.reduce((sum, answer) => sum + Number(answer.body.data!.added), 0)).toBe(1);
    expect(answers.reduce((sum, answer) => sum + Number(answer.body.data!.created_contacts), 0)).toBe(1);
    expect(await contactsWith('+2250700000001')).toBe(1);
    const members = await query(env, 'SELECT contact_id FROM contact_group_member WHERE group_id = ?', [group]);
    expect(members).toHaveLength(1);
    expect((await call(1, 'GET', `/v1/group/${group}`)).body.data!.contact_count).toBe(1);
  }, 60_000);

  it('creates a phone once for 20 concurrent creations, and answers 409 to the others', async () => {
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, n) => call(n, 'POST', '/v1/contact', { phone: '+2250700000002' })));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(CONCURRENT - 1);
    expect(await contactsWith('+2250700000002')).toBe(1);
  }, 60_000);

  it('creates each phone once for 20 concurrent bulk upserts of overlapping phones, into one group', async () => {
    const group = (await call(0, 'POST', '/v1/group', { name: 'Bulk' })).body.data!.id as string;
    const phones = Array.from({ length: 30 }, (_, n) => `+22507000001${String(n).padStart(2, '0')}`);

    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, n) =>
        call(n, 'POST', '/v1/contact/bulk', { contacts: phones.slice(n % 10, n % 10 + 20).map((phone) => ({ phone })), group_ids: [group] }),
      ),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));
    expect(answers.reduce((sum, answer) => sum + Number(answer.body.data!.created), 0)).toBe(phones.length - 1);
    const rows = await query(env, 'SELECT phone, COUNT(*) AS count FROM contact WHERE account_id = ? AND phone LIKE ? GROUP BY phone', [account.account_id, '+22507000001%']);
    expect(rows).toHaveLength(phones.length - 1);
    expect(rows.every((row) => Number(row.count) === 1)).toBe(true);
    expect((await call(1, 'GET', `/v1/group/${group}`)).body.data!.contact_count).toBe(phones.length - 1);
  }, 60_000);
});
