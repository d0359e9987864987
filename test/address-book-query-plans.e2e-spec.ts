import { DataSource } from 'typeorm';
import { newId } from '../src/common/ids.js';
import type { Statement } from '../src/database/statements.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { explainable, plansOf, recordStatements, sortingPlans } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const FILLED_CONTACTS = 3000;
const phoneOf = (n: number) => `+22507${String(100_000_000 + n).slice(1)}`;

/** Every statement of the contact, group, member and sender routes seeks through an index, on tables holding thousands of rows. */
describe('query plans of the address book', () => {
  let t: TestApp;
  let ran: Statement[];

  beforeAll(async () => {
    t = await startTestApp();
    const call = (tenant: Tenant, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
      const pending = t.http()[method](path).set('Authorization', tenant.auth);
      return body ? pending.send(body) : pending;
    };

    // another tenant fills the tables: contacts, a large group, opt-outs
    const filler = await createTenant(t);
    const fillerGroup = (await call(filler, 'post', '/v1/group', { name: 'Tous' })).body.data.id;
    for (let start = 0; start < FILLED_CONTACTS; start += 1000) {
      const contacts = Array.from({ length: 1000 }, (_, n) => ({ phone: phoneOf(start + n), name: `Contact ${start + n}`, email: `c${start + n}@example.com` }));
      await call(filler, 'post', '/v1/contact/bulk', { contacts, group_ids: [fillerGroup] }).expect(200);
    }
    for (let n = 0; n < 40; n++) await call(filler, 'post', '/v1/group', { name: `Groupe ${n}` }).expect(201);
    await t.database.run((sql) =>
      sql.run(
        `INSERT INTO opt_out (id, account_id, sandbox, phone, source, created_at) VALUES ${Array.from({ length: 500 }, () => '(?, ?, 0, ?, ?, ?)').join(', ')}`,
        Array.from({ length: 500 }, (_, n) => [newId(), filler.accountId, phoneOf(n * 2), 'api', new Date()]).flat(),
      ),
    );
    if (t.database.dialect === 'mysql') {
      await t.database.run((sql) => sql.all('ANALYZE TABLE contact, contact_group, contact_group_member, opt_out'));
    }

    const tenant = await createTenant(t);
    const recording = recordStatements(t.app.get(DataSource));
    const group = (await call(tenant, 'post', '/v1/group', { name: 'Clients' }).expect(201)).body.data.id;
    await call(tenant, 'get', '/v1/group?q=cli').expect(200);
    const groups = await call(tenant, 'get', '/v1/group?limit=1').expect(200);
    await call(tenant, 'get', `/v1/group?limit=1&cursor=${groups.body.data.next_cursor ?? ''}`);
    await call(tenant, 'patch', `/v1/group/${group}`, { name: 'Clients fidèles' }).expect(200);
    const contact = (await call(tenant, 'post', '/v1/contact', { phone: '+2250101010101', name: 'Awa', group_ids: [group] }).expect(201)).body.data.id;
    await call(tenant, 'post', '/v1/contact/bulk', { contacts: [{ phone: '+2250101010102' }, { phone: '+2250101010101', name: 'Awa K' }], on_duplicate: 'update', group_ids: [group] }).expect(200);
    await call(tenant, 'get', `/v1/contact/${contact}`).expect(200);
    await call(tenant, 'patch', `/v1/contact/${contact}`, { phone: '+2250101010103', email: 'awa@example.com' }).expect(200);
    for (const query of ['q=awa', 'q=0101', `group_id=${group}`, 'opted_out=true', 'opted_out=false', 'created_from=2026-01-01T00:00:00Z', 'limit=1']) {
      await call(tenant, 'get', `/v1/contact?${query}`).expect(200);
    }
    const page = await call(tenant, 'get', '/v1/contact?limit=1').expect(200);
    await call(tenant, 'get', `/v1/contact?limit=1&cursor=${page.body.data.next_cursor}`).expect(200);
    await call(tenant, 'post', `/v1/group/${group}/contacts`, { phones: ['+2250101010104'], contact_ids: [contact] }).expect(200);
    const members = await call(tenant, 'get', `/v1/group/${group}/contacts?limit=1`).expect(200);
    await call(tenant, 'get', `/v1/group/${group}/contacts?limit=1&cursor=${members.body.data.next_cursor}`).expect(200);
    await call(tenant, 'post', `/v1/group/${group}/contacts/remove`, { contact_ids: [contact] }).expect(200);
    await call(tenant, 'post', `/v1/group/${group}/contacts`, { contact_ids: [contact] }).expect(200);
    await call(tenant, 'delete', `/v1/group/${group}/contacts/${contact}`).expect(200);
    await call(tenant, 'delete', `/v1/contact/${contact}`).expect(200);
    await call(tenant, 'delete', `/v1/group/${group}`).expect(200);
    const sender = (await call(tenant, 'post', '/v1/sender', { name: 'PLANS', use_case: 'Codes de connexion des clients' }).expect(201)).body.data.id;
    await call(tenant, 'get', '/v1/sender?status=pending').expect(200);
    await call(tenant, 'get', `/v1/sender/${sender}`).expect(200);
    await call(tenant, 'post', `/v1/sender/${sender}/default`).expect(409);
    await call(tenant, 'delete', `/v1/sender/${sender}`).expect(200);
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\b(contact|contact_group|contact_group_member|opt_out|sender)\b/.test(statement.query));
  }, 120_000);
  afterAll(() => t?.close());

  it('ran the statements of every route', () => {
    for (const shape of [/FROM contact_group_member m (CROSS JOIN|STRAIGHT_JOIN) contact c/, /c\.search_name >= \?/, /c\.phone >= \?/, /FROM contact_group WHERE account_id = \?.*name_key >= \?/s, /NOT EXISTS \(SELECT 1 FROM opt_out/]) {
      expect(ran.some((statement) => shape.test(statement.query))).toBe(true);
    }
  });

  // a search sorts its matches, and MariaDB may read the opted-out contacts from the (smaller) opt-out list and sort them
  const sortsItsMatches = /search_name >= \?|c\.phone >= \?|name_key >= \?|\? AND EXISTS \(SELECT 1 FROM opt_out/;

  it('reads every list but a search in key order, without sorting what it read', async () => {
    const lists = ran.filter((statement) => /ORDER BY \S+ DESC LIMIT/.test(statement.query) && !sortsItsMatches.test(statement.query));
    expect(lists.length).toBeGreaterThan(5);
    const sorted = await sortingPlans(t.app.get(DataSource), lists);
    expect(sorted).toEqual(lists.map((statement) => ({ query: statement.query, sorts: false })));
  });

  it('seeks through an index in every one of them', async () => {
    expect(await plansOf(t.app.get(DataSource), ran)).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
