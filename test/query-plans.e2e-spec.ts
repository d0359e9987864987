import { jest } from '@jest/globals';
import { Sql } from '../src/database/sql.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Recorded {
  query: string;
  params: readonly unknown[];
}

/** The statements on the hot paths, recognised in what the service really runs. */
const HOT_QUERIES: Array<[name: string, pattern: RegExp]> = [
  ['API key by hash', /FROM api_key k JOIN user u ON u\.id = k\.user_id\s+WHERE k\.key_hash = \?/],
  ['latest OTP of a recipient, locked', /FROM otp_recipient r\s+JOIN otp o ON o\.uniq_id = r\.latest_otp_id/],
  ['sends to a recipient in the window', /FROM otp\s+WHERE account_id = \? AND recipient = \? AND created_at > \?/],
  ['failed verifications of a recipient in the window', /FROM verification_failure\s+WHERE account_id = \? AND recipient = \? AND created_at > \?/],
  ['supersede the earlier codes', /^UPDATE otp SET status = 'superseded'/],
  ['SMS by uniq_id', /FROM message_out m[\s\S]*WHERE m\.uniq_id = \? AND m\.account_id = \?/],
  ['SMS by lot', /FROM message_out m[\s\S]*WHERE m\.account_id = \? AND m\.lot = \?/],
  ['contact of an SMS', /FROM contact WHERE account_id = \? AND phone = \?/],
  ['idempotency record', /FROM idempotency_record\s+WHERE account_id = \? AND idem_key = \?/],
  ['outbox claim', /FROM outbox WHERE available_at <= \? ORDER BY available_at, id/],
  ['sender by name', /FROM sender WHERE account_id = \? AND name_key = \?/],
  ['default sender', /FROM sender WHERE account_id = \? AND is_default = 1/],
  ['price of a destination', /FROM message_price WHERE channel = \? AND dial_code = \?/],
  ['debit', /^UPDATE account SET balance = balance - \? WHERE id = \? AND balance >= \?/],
];

/** Every statement the service runs, through the one class all of them pass through. */
function recordStatements(): { recorded: Recorded[]; stop(): void } {
  const recorded: Recorded[] = [];
  const spies = (['all', 'run', 'later'] as const).map((method) => {
    const original = Sql.prototype[method] as (this: Sql, query: string, params?: readonly unknown[]) => Promise<unknown>;
    return jest.spyOn(Sql.prototype, method).mockImplementation(function (this: Sql, query: string, params: readonly unknown[] = []) {
      recorded.push({ query: query.trim(), params });
      return original.call(this, query, params as never) as never;
    } as never);
  });
  return { recorded, stop: () => spies.forEach((spy) => spy.mockRestore()) };
}

/** Table accesses of the plan that read a whole table or index instead of seeking in an index. */
async function fullScans(t: TestApp, { query, params }: Recorded): Promise<string[]> {
  const statement = query.replace(/ FOR UPDATE( SKIP LOCKED)?$/, '');
  if (t.database.dialect === 'sqlite') {
    const plan = await t.database.run((sql) => sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, params as never));
    return plan.map((step) => step.detail).filter((detail) => /^SCAN /.test(detail));
  }
  const plan = await t.database.run((sql) => sql.all<{ table: string; type: string; key: string | null }>(`EXPLAIN ${statement}`, params as never));
  return plan.filter((step) => step.table !== null && (step.type === 'ALL' || step.type === 'index' || step.key === null)).map((step) => `${step.table}: ${step.type}`);
}

describe('query plans of the hot paths', () => {
  let t: TestApp;
  let tenant: Tenant;
  let recorded: Recorded[];

  beforeAll(async () => {
    t = await startTestApp();
    // from the start: authentication and sender look-ups are cached after the first request
    const recording = recordStatements();
    tenant = await createTenant(t, { balance: '100000.00' });
    await t.admin.createContact(tenant.accountId, { name: 'Awa', phone: '+2250707070707' });
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      t.http().post(path).set('Authorization', tenant.auth).set(headers).send(body);

    // enough rows that a planner has a reason to prefer an index; they wait in the outbox meanwhile
    await t.pauseDelivery();
    for (let i = 0; i < 300; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => post('/v1/otp/send', smsBody(`+22505${String(10_000_000 + i + j)}`)).expect(200)));
    }
    if (t.database.dialect === 'mysql') {
      await t.database.run((sql) => sql.all('ANALYZE TABLE otp, otp_recipient, message_out, outbox, api_key, verification_failure'));
    }

    const sent = (await post('/v1/otp/send', smsBody('+2250707070707', { sender: 'DEMO' }), { 'Idempotency-Key': 'plans-1' }).expect(200)).body.data;
    await post('/v1/otp/send', emailBody('awa@example.com')).expect(200);
    await post('/v1/otp/verify', { to: '+2250707070707', code: sent.code === '000000' ? '111111' : '000000' }).expect(400);
    await post('/v1/otp/verify', { to: '+2250707070707', code: sent.code }).expect(200);
    const sms = (await t.http().get(`/v1/sms/out/${sent.uniq_id}`).set('Authorization', tenant.auth).expect(200)).body.data;
    await t.http().get(`/v1/sms/out/${sms.lot}`).set('Authorization', tenant.auth).expect(200);
    t.resumeDelivery();
    await t.deliver();
    recording.stop();
    recorded = recording.recorded;
  }, 60_000);
  afterAll(() => t.close());

  it.each(HOT_QUERIES)('finds %s through an index', async (_, pattern) => {
    const matching = recorded.filter((statement) => pattern.test(statement.query));
    const statements = [...new Map(matching.map((statement) => [statement.query, statement])).values()];
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect({ query: statement.query, scans: await fullScans(t, statement) }).toEqual({ query: statement.query, scans: [] });
  });

  it('sees a full scan where there is one, so that the checks above can fail', async () => {
    const scans = await fullScans(t, { query: 'SELECT uniq_id FROM otp WHERE application_name = ?', params: ['none'] });
    expect(scans).toHaveLength(1);
  });
});
