import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { newId } from '../src/common/ids.js';
import type { Statement } from '../src/database/statements.js';
import { MessageOutRepository, type NewMessageOut } from '../src/sms/message-out.repository.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { plansOf, recordStatements } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const ACCOUNT_INDEX = 'IDX_message_out_account_id';

/** GET /v1/metrics counts through an index range with every filter, and unfiltered from the account's index alone. */
describe('query plans of GET /v1/metrics', () => {
  let t: TestApp;
  let reads: Statement[];
  const unfiltered = () => reads.filter((statement) => !/\b(type|sender_id|campaign_id|country) = \?/.test(statement.query));

  /** Whether the statement reads only the account's index, never a message's row (MariaDB's `Using index`, not `Using index condition`). */
  async function coveredByAccountIndex({ query, params }: Statement): Promise<boolean> {
    if (t.database.dialect === 'sqlite') {
      const plan = await t.database.run((sql) => sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, params as never[]));
      return plan.some((step) => step.detail.includes(`USING COVERING INDEX ${ACCOUNT_INDEX} `));
    }
    const plan = (await t.app.get(DataSource).query(`EXPLAIN ${query}`, params)) as Array<{
      table: string | null;
      key: string | null;
      Extra: string | null;
    }>;
    const access = plan.filter((step) => step.table === 'message_out');
    return access.length === 1 && access[0]!.key === ACCOUNT_INDEX && (access[0]!.Extra ?? '').split('; ').includes('Using index');
  }

  beforeAll(async () => {
    t = await startTestApp();
    const [filler, tenant] = [await createTenant(t), await createTenant(t)];
    const start = new Date('2026-09-01T00:00:00Z').getTime();
    const messageOf = (who: Tenant, at: Date): NewMessageOut => ({
      uniqId: uuidv7({ msecs: at.getTime() }),
      accountId: who.accountId,
      messagePriceId: '0191f3a0-0000-7000-8000-000000000225',
      type: 'sms',
      lot: 'metrics',
      senderId: who.senderId,
      recipient: '+2250707070707',
      country: 'CI',
      message: 'x',
      segments: 1,
      encoding: 'GSM7',
      amount: 250,
      createdBy: who.userId,
      localNumber: null,
      language: null,
      test: false,
      at,
    });
    const rows = Array.from({ length: 3000 }, (_, n) => messageOf(n % 3 === 0 ? tenant : filler, new Date(start + n * 60_000)));
    await t.database.transaction((sql) => t.app.get(MessageOutRepository).insertMany(sql, rows));
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE message_out'));

    const recording = recordStatements(t.app.get(DataSource));
    const range = { created_from: '2026-09-01T12:00:00Z', created_to: '2026-09-02T00:00:00Z' };
    const filters: Array<Record<string, string>> = [
      {},
      { type: 'sms' },
      { sender_id: tenant.senderId },
      { campaign_id: newId() },
      { country: 'CI' },
      { timezone: 'Asia/Kolkata' },
    ];
    for (const filter of filters) {
      await t
        .http()
        .get('/v1/metrics')
        .query({ ...range, ...filter })
        .set('Authorization', tenant.auth)
        .expect(200);
    }
    recording.stop();
    reads = recording.statements.filter((statement) => /FROM message_out/.test(statement.query));
  }, 60_000);
  afterAll(() => t?.close());

  it('reads through an index with every filter, on a table of thousands of messages', async () => {
    expect(reads.length).toBe(6);
    expect(await plansOf(t.app.get(DataSource), reads)).toEqual(reads.map((statement) => ({ query: statement.query, scans: [] })));
  });

  it('counts by hour and by quarter of an hour from the account index alone', async () => {
    const counts = unfiltered();
    expect(counts.length).toBe(2);
    for (const statement of counts)
      expect({ query: statement.query, covered: await coveredByAccountIndex(statement) }).toEqual({ query: statement.query, covered: true });
  });

  // last: it drops the index
  it(`reads the messages' rows once ${ACCOUNT_INDEX} holds only its keys`, async () => {
    await t.database.run((sql) => sql.run(sql.dialect === 'mysql' ? `DROP INDEX ${ACCOUNT_INDEX} ON message_out` : `DROP INDEX ${ACCOUNT_INDEX}`));
    await t.database.run((sql) => sql.run(`CREATE INDEX ${ACCOUNT_INDEX} ON message_out (account_id, is_test, uniq_id)`));
    for (const statement of unfiltered())
      expect({ query: statement.query, covered: await coveredByAccountIndex(statement) }).toEqual({ query: statement.query, covered: false });
  });
});
