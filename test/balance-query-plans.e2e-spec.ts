import { DataSource } from 'typeorm';
import type { Statement } from '../src/database/statements.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { explainable, fullScans, recordStatements, sortingPlans } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const FILLED_ROWS = 3000;
const recipient = (n: number) => `+22507090${String(n).padStart(5, '0')}`;

/** Every statement of the balance routes and of the low-balance alert seeks through an index, on a ledger of thousands of rows. */
describe('query plans of the balance', () => {
  let t: TestApp;
  let ran: Statement[];

  beforeAll(async () => {
    t = await startTestApp();
    const call = (tenant: Tenant, method: 'get' | 'put' | 'post', path: string, body?: object) => {
      const pending = t.http()[method](path).set('Authorization', tenant.auth);
      return body ? pending.send(body) : pending;
    };

    // another tenant fills the ledger
    const filler = await createTenant(t, { balance: '100000.00' });
    await t.database.transaction((sql) =>
      sql.run(
        `INSERT INTO ledger_entry (account_id, amount, kind, reference, reference_type, created_at, balance_after) VALUES ${Array.from({ length: FILLED_ROWS }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        Array.from({ length: FILLED_ROWS }, (_, n) => [filler.accountId, -1, 'debit', `ref-${n}`, 'sms', new Date(), 0]).flat(),
      ),
    );
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE ledger_entry, account'));

    const tenant = await createTenant(t, { balance: '12.00' });
    for (let n = 0; n < 3; n++) await call(tenant, 'post', '/v1/otp/send', smsBody(recipient(n))).expect(200);
    const recording = recordStatements(t.app.get(DataSource));
    await call(tenant, 'get', '/v1/balance').expect(200);
    await call(tenant, 'put', '/v1/balance/alert', { threshold: 3 }).expect(200);
    await call(tenant, 'post', '/v1/otp/send', smsBody(recipient(10))).expect(200);
    await t.admin.credit(tenant.accountId, '5.00');
    const from = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    for (const query of ['', 'type=debit', 'reference_id=ref-1', `created_from=${from}`, `created_from=${from}&created_to=${to}`, 'type=debit&reference_id=ref-1']) {
      const page = await call(tenant, 'get', `/v1/balance/transactions?limit=1&${query}`).expect(200);
      if (page.body.data.next_cursor) await call(tenant, 'get', `/v1/balance/transactions?limit=1&${query}&cursor=${page.body.data.next_cursor}`).expect(200);
    }
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\b(ledger_entry|low_balance_\w+)\b/.test(statement.query));
  }, 120_000);
  afterAll(() => t?.close());

  it('ran the statements of every route and of the alert', () => {
    for (const shape of [/SET low_balance_armed = 0 WHERE/, /SET low_balance_threshold = \?/, /low_balance_armed = CASE/, /FROM ledger_entry WHERE account_id = \? AND kind = \?/, /reference = \?/, /created_at >= \?/, /id < \?/, /ORDER BY l\.id DESC LIMIT 1/]) {
      expect(ran.some((statement) => shape.test(statement.query))).toBe(true);
    }
  });

  it('reads every page of the ledger in key order, without sorting what it read', async () => {
    const lists = ran.filter((statement) => /ORDER BY \S+ DESC LIMIT/.test(statement.query));
    expect(lists.length).toBeGreaterThan(5);
    const sorted = await sortingPlans(t.app.get(DataSource), lists);
    expect(sorted).toEqual(lists.map((statement) => ({ query: statement.query, sorts: false })));
  });

  it('seeks through an index in every one of them', async () => {
    const plans = await Promise.all(ran.map(async (statement) => ({ query: statement.query, scans: await fullScans(t.app.get(DataSource), statement) })));
    expect(plans).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
