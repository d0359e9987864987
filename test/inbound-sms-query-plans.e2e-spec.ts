import { DataSource } from 'typeorm';
import { newId } from '../src/common/ids.js';
import type { Statement } from '../src/database/statements.js';
import { InboundMessages } from '../src/delivery/inbound-messages.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { explainable, plansOf, recordStatements, sortingPlans } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const FILLED_MESSAGES = 3000;
const FILLED_NUMBERS = 500;
const writerOf = (n: number) => `+22507${String(100_000_000 + n).slice(1)}`;

/** Receiving an inbound SMS and listing them seek through indexes, on tables holding thousands of rows of another account. */
describe('query plans of inbound SMS', () => {
  let t: TestApp;
  let ran: Statement[];

  beforeAll(async () => {
    t = await startTestApp();
    const call = (tenant: Tenant, path: string) => t.http().get(path).set('Authorization', tenant.auth);

    // another account fills the tables: local numbers, inbound messages from many writers, some of them keywords
    const filler = await createTenant(t);
    await t.database.run((sql) =>
      sql.run(
        `INSERT INTO local_number (id, account_id, dial_code, number, created_at) VALUES ${Array.from({ length: FILLED_NUMBERS }, () => '(?, ?, ?, ?, ?)').join(', ')}`,
        Array.from({ length: FILLED_NUMBERS }, (_, n) => [newId(), filler.accountId, `+9${n}`, `+22501${String(10_000_000 + n).slice(1)}`, new Date()]).flat(),
      ),
    );
    for (let start = 0; start < FILLED_MESSAGES; start += 500) {
      await t.database.run((sql) =>
        sql.run(
          `INSERT INTO message_in (id, account_id, sender, recipient, message, message_encoding, keyword, provider, provider_id, received_at) VALUES ${Array.from({ length: 500 }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          Array.from({ length: 500 }, (_, k) => {
            const n = start + k;
            return [newId(), filler.accountId, writerOf(n % 700), '+2250100000001', n % 10 === 0 ? 'STOP' : 'Bonjour', 'GSM7', n % 10 === 0 ? 'STOP' : null, 'smpp', null, new Date()];
          }).flat(),
        ),
      );
    }
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE local_number, message_in, opt_out, sender'));

    const tenant = await createTenant(t);
    await t.admin.addLocalNumber(tenant.accountId, '+2250102030405');
    const recording = recordStatements(t.app.get(DataSource));
    const inbound = t.app.get(InboundMessages);
    for (const text of ['Bonjour', 'STOP', 'START', 'STOP', 'AIDE']) {
      await inbound.receive({ provider: 'smpp', providerId: null, from: writerOf(1), to: '+2250102030405', text, encoding: 'GSM7' });
    }
    await inbound.receive({ provider: 'smpp', providerId: null, from: writerOf(1), to: '+2250109999999', text: 'STOP', encoding: 'GSM7' });
    for (const query of ['', `from=${encodeURIComponent(writerOf(1))}`, 'keyword=STOP', `keyword=STOP&from=${encodeURIComponent(writerOf(1))}`, 'created_from=2026-01-01T00:00:00Z', 'created_to=2099-01-01T00:00:00Z']) {
      const page = await call(tenant, `/v1/sms/in?limit=1&${query}`).expect(200);
      await call(tenant, `/v1/sms/in?limit=1&${query}&cursor=${page.body.data.next_cursor}`).expect(200);
    }
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\b(message_in|local_number|opt_out)\b/.test(statement.query));
  }, 120_000);
  afterAll(() => t?.close());

  it('ran the statements of receiving and listing', () => {
    for (const shape of [/FROM local_number WHERE number = \?/, /DELETE FROM opt_out/, /FROM message_in WHERE account_id = \? AND sender = \?/, /FROM message_in WHERE account_id = \? AND keyword = \?/]) {
      expect(ran.some((statement) => shape.test(statement.query))).toBe(true);
    }
  });

  it('reads every page in key order, without sorting what it read', async () => {
    const lists = ran.filter((statement) => /FROM message_in .*ORDER BY id DESC LIMIT/s.test(statement.query));
    expect(lists.length).toBeGreaterThanOrEqual(6);
    const sorted = await sortingPlans(t.app.get(DataSource), lists);
    expect(sorted).toEqual(lists.map((statement) => ({ query: statement.query, sorts: false })));
  });

  it('seeks through an index in every one of them', async () => {
    expect(await plansOf(t.app.get(DataSource), ran)).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
