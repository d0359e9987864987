import { DataSource } from 'typeorm';
import { newId } from '../src/common/ids.js';
import type { Statement } from '../src/database/statements.js';
import { HLR_QUEUE } from '../src/hlr/hlr.worker.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { explainable, plansOf, recordStatements, sortingPlans } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const FILLED_LOOKUPS = 4000;

/** Submitting, answering and listing HLR lookups seek through indexes, on a table holding thousands of another account's lookups. */
describe('query plans of HLR lookups', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let ran: Statement[];

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const call = (tenant: Tenant, path: string) => t.http().get(path).set('Authorization', tenant.auth);

    // another account fills the table: answered lookups in lots of 100, a few still pending in the future
    const filler = await createTenant(t);
    for (let start = 0; start < FILLED_LOOKUPS; start += 500) {
      await t.database.run((sql) =>
        sql.run(
          `INSERT INTO hlr_lookup (id, account_id, sandbox, lot, number, country, status, amount, available_at, created_at)
            VALUES ${Array.from({ length: 500 }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          Array.from({ length: 500 }, (_, k) => {
            const n = start + k;
            const pending = n % 50 === 0;
            return [newId(), filler.accountId, false, `LOT${Math.floor(n / 100)}`, `+22507${String(10_000_000 + n).slice(1)}`, 'CI', pending ? 'pending' : 'completed', 1000, pending ? new Date(Date.now() + 86_400_000) : null, new Date()];
          }).flat(),
        ),
      );
    }
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE hlr_lookup'));

    const tenant = await createTenant(t);
    await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url('/plans'), events: ['hlr.completed'] }).expect(200);
    const recording = recordStatements(t.app.get(DataSource));
    const batch = (await t.http().post('/v1/hlr').set('Authorization', tenant.auth).send({ numbers: ['+2250707070707', '+221771234567'] }).expect(200)).body.data;
    await t.drain(HLR_QUEUE);
    await call(tenant, `/v1/hlr/${batch.lookups[0].id}`).expect(200);
    await call(tenant, `/v1/hlr/${batch.lot}`).expect(200);
    for (const query of ['', `lot=${batch.lot}`, 'status=completed', `lot=${batch.lot}&status=completed`]) {
      const page = await call(tenant, `/v1/hlr?limit=1&${query}`).expect(200);
      await call(tenant, `/v1/hlr?limit=1&${query}&cursor=${page.body.data.next_cursor}`).expect(200);
    }
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\bhlr_lookup\b/.test(statement.query));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('ran the statements of submitting, answering and listing', () => {
    for (const shape of [
      /FROM hlr_lookup WHERE available_at <= \?/,
      /UPDATE hlr_lookup SET status = \?/,
      /FROM hlr_lookup WHERE id = \? AND account_id = \?/,
      /FROM hlr_lookup WHERE account_id = \? AND lot = \? AND sandbox = \? ORDER BY id LIMIT 1/,
      /FROM hlr_lookup WHERE account_id = \? AND status = \?/,
    ]) {
      expect(ran.some((statement) => shape.test(statement.query))).toBe(true);
    }
  });

  it('reads every page in key order, without sorting what it read', async () => {
    const lists = ran.filter((statement) => /FROM hlr_lookup WHERE account_id = \?.*ORDER BY id DESC LIMIT/s.test(statement.query));
    expect(lists.length).toBeGreaterThanOrEqual(8);
    const sorted = await sortingPlans(t.app.get(DataSource), lists);
    expect(sorted).toEqual(lists.map((statement) => ({ query: statement.query, sorts: false })));
  });

  it('seeks through an index in every one of them', async () => {
    expect(await plansOf(t.app.get(DataSource), ran)).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
