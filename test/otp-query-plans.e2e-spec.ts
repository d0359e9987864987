import { DataSource } from 'typeorm';
import { newId } from '../src/common/ids.js';
import type { Statement } from '../src/database/statements.js';
import { createTenant, emailBody, smsBody } from './support/fixtures.js';
import { explainable, plansOf, recordStatements, sortingPlans } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const FILLED_OTPS = 4000;
const TO = '+2250707074001';

/** Reading OTPs (`GET /v1/otp`, `/v1/otp/{uniq_id}`) seeks through indexes, on a table holding thousands of another account's OTPs. */
describe('query plans of OTP reads', () => {
  let t: TestApp;
  let ran: Statement[];

  beforeAll(async () => {
    t = await startTestApp();
    const filler = await createTenant(t);
    for (let start = 0; start < FILLED_OTPS; start += 500) {
      await t.database.run((sql) =>
        sql.run(
          `INSERT INTO otp (uniq_id, account_id, recipient, channel, code_hash, status, attempts, expires_at, language, lot, created_by, is_test, created_at)
            VALUES ${Array.from({ length: 500 }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          Array.from({ length: 500 }, (_, k) => {
            const n = start + k;
            return [newId(), filler.accountId, `+22507${String(10_000_000 + n).slice(1)}`, 'SMS', '', 'pending', 0, new Date(), 'fr', `LOT${n}`, filler.userId, false, new Date()];
          }).flat(),
        ),
      );
    }
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE otp'));

    const tenant = await createTenant(t);
    const call = (path: string) => t.http().get(path).set('Authorization', tenant.auth).expect(200);
    const sent = [];
    for (const body of [smsBody(TO), emailBody('plans@example.com'), smsBody('+2250707074002'), smsBody(TO)]) {
      sent.push((await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(body).expect(200)).body.data.uniq_id as string);
    }
    const recording = recordStatements(t.app.get(DataSource));
    await call(`/v1/otp/${sent[0]}`);
    const from = new Date(t.clock.now().getTime() - 3_600_000).toISOString();
    for (const query of ['', 'state=active', 'channel=email', `created_from=${from}`, `to=${TO}`, `to=${TO}&state=superseded`]) {
      const page = await call(`/v1/otp?limit=1&${query}`);
      if (page.body.data.next_cursor) await call(`/v1/otp?limit=1&${query}&cursor=${page.body.data.next_cursor}`);
    }
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\bFROM otp o\b/.test(statement.query));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('ran the statements of reading one OTP and listing them', () => {
    expect(ran.some((statement) => /WHERE o\.uniq_id = \? AND o\.account_id = \? AND o\.is_test = \?/.test(statement.query))).toBe(true);
    expect(ran.filter((statement) => /ORDER BY o\.uniq_id DESC LIMIT/.test(statement.query)).length).toBeGreaterThanOrEqual(8);
  });

  it("reads every page in key order, without sorting what it read, except a recipient's OTPs, which its own index finds", async () => {
    const lists = ran.filter((statement) => /ORDER BY o\.uniq_id DESC LIMIT/.test(statement.query));
    const sorted = await sortingPlans(t.app.get(DataSource), lists);
    expect(sorted).toEqual(lists.map((statement) => ({ query: statement.query, sorts: statement.query.includes('o.recipient = ?') ? expect.any(Boolean) : false })));
  });

  it('seeks through an index in every one of them', async () => {
    expect(await plansOf(t.app.get(DataSource), ran)).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
