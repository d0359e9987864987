import { v7 as uuidv7 } from 'uuid';
import { newId } from '../src/common/ids.js';
import { MessageOutRepository, type NewMessageOut } from '../src/sms/message-out.repository.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const periodCounts = (buckets: Array<{ period: string; messages: number }>) => buckets.map((bucket) => [bucket.period, bucket.messages]);
const ZERO = { scheduled: 0, pending: 0, sent: 0, delivered: 0, undelivered: 0, failed: 0, cancelled: 0 };

/** GET /v1/metrics against messages written at chosen instants, checked against a hand count. */
describe('GET /v1/metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const metrics = (tenant: Tenant, query: Record<string, string>) => t.http().get('/v1/metrics').query(query).set('Authorization', tenant.auth);
  /** Each bucket of the answer as [period, messages]. */
  const bucketCounts = async (tenant: Tenant, query: Record<string, string>) =>
    periodCounts((await metrics(tenant, query).expect(200)).body.data.buckets);

  /** A message accepted at `at` (its uniq_id made then), 2.50 a segment. */
  async function write(tenant: Tenant, at: string, extra: Partial<NewMessageOut> = {}): Promise<void> {
    const message = { ...messageOf(tenant, new Date(at)), ...extra };
    message.amount = 250 * message.segments;
    await t.database.transaction((sql) => t.app.get(MessageOutRepository).insert(sql, message));
  }
  function messageOf(tenant: Tenant, when: Date): NewMessageOut {
    return {
      // of its own time: newId keeps one process's ids increasing, and these instants are past
      uniqId: uuidv7({ msecs: when.getTime() }),
      accountId: tenant.accountId,
      messagePriceId: '0191f3a0-0000-7000-8000-000000000225',
      type: 'sms',
      lot: 'metrics',
      senderId: tenant.senderId,
      recipient: '+2250707070707',
      country: 'CI',
      message: 'x',
      segments: 1,
      encoding: 'GSM7',
      amount: 250,
      createdBy: tenant.userId,
      localNumber: null,
      language: null,
      test: false,
      at: when,
    };
  }
  const setStatus = (tenant: Tenant, at: string, status: string) =>
    t.database.run((sql) => sql.run('UPDATE message_out SET status = ? WHERE account_id = ? AND created_at = ?', [status, tenant.accountId, new Date(at)]));

  it('counts by local day across the spring-forward change in Europe/Paris, with rates from a hand count', async () => {
    const tenant = await createTenant(t);
    // CET until 2026-03-29 01:00 UTC, CEST after: local midnight is 23:00 UTC on the 28th and 22:00 UTC on the 29th
    const at = ['2026-03-28T22:30:00.000Z', '2026-03-28T23:30:00.000Z', '2026-03-29T00:59:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T21:59:00.000Z', '2026-03-29T22:00:00.000Z'];
    const statuses = ['delivered', 'delivered', 'undelivered', 'failed', 'sent', 'delivered'];
    for (const [index, time] of at.entries()) {
      await write(tenant, time, { segments: index === 1 ? 2 : 1 });
      await setStatus(tenant, time, statuses[index]!);
    }

    const answer = await metrics(tenant, { created_from: '2026-03-28T00:00:00+01:00', created_to: '2026-03-31T00:00:00+02:00', timezone: 'Europe/Paris' }).expect(200);

    expect(answer.body.data).toEqual({
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-30T22:00:00.000Z',
      timezone: 'Europe/Paris',
      totals: { messages: 6, segments: 7, amount: 17.5, by_status: { ...ZERO, sent: 1, delivered: 3, undelivered: 1, failed: 1 }, delivery_rate: 0.6, failure_rate: 0.1667 },
      otp: { sent: 0, verified: 0, conversion_rate: null, blocked: 0 },
      buckets: [
        { period: '2026-03-28', messages: 1, segments: 1, amount: 2.5, by_status: { ...ZERO, delivered: 1 }, delivery_rate: 1, failure_rate: 0 },
        { period: '2026-03-29', messages: 4, segments: 5, amount: 12.5, by_status: { ...ZERO, delivered: 1, undelivered: 1, failed: 1, sent: 1 }, delivery_rate: 0.3333, failure_rate: 0.25 },
        { period: '2026-03-30', messages: 1, segments: 1, amount: 2.5, by_status: { ...ZERO, delivered: 1 }, delivery_rate: 1, failure_rate: 0 },
      ],
    });
  });

  it('counts the 25-hour fall-back day in Europe/Paris as one day, both of its 02:00–03:00 hours included', async () => {
    const tenant = await createTenant(t);
    // CEST until 2026-10-25 01:00 UTC, CET after: local 02:00–03:00 is 00:00–01:00 UTC and again 01:00–02:00 UTC;
    // the 25th runs from 22:00 UTC on the 24th to 23:00 UTC on the 25th
    const written: Array<[at: string, status: string]> = [
      ['2026-10-24T21:59:00.000Z', 'delivered'], // 23:59 on the 24th
      ['2026-10-24T22:00:00.000Z', 'delivered'], // 00:00 on the 25th
      ['2026-10-25T00:15:00.000Z', 'delivered'], // 02:15 CEST
      ['2026-10-25T00:59:00.000Z', 'sent'], // 02:59 CEST
      ['2026-10-25T01:15:00.000Z', 'failed'], // 02:15 CET
      ['2026-10-25T01:59:00.000Z', 'undelivered'], // 02:59 CET
      ['2026-10-25T22:59:00.000Z', 'delivered'], // 23:59 on the 25th
      ['2026-10-25T23:00:00.000Z', 'failed'], // 00:00 on the 26th
    ];
    for (const [at, status] of written) {
      await write(tenant, at);
      await setStatus(tenant, at, status);
    }

    const answer = await metrics(tenant, {
      created_from: '2026-10-24T00:00:00+02:00',
      created_to: '2026-10-27T00:00:00+01:00',
      timezone: 'Europe/Paris',
    }).expect(200);

    expect(answer.body.data.buckets).toEqual([
      { period: '2026-10-24', messages: 1, segments: 1, amount: 2.5, by_status: { ...ZERO, delivered: 1 }, delivery_rate: 1, failure_rate: 0 },
      // handed over 5 (3 delivered, 1 sent, 1 undelivered): 3 ÷ 5; failed 1 of 6
      {
        period: '2026-10-25',
        messages: 6,
        segments: 6,
        amount: 15,
        by_status: { ...ZERO, delivered: 3, sent: 1, failed: 1, undelivered: 1 },
        delivery_rate: 0.6,
        failure_rate: 0.1667,
      },
      { period: '2026-10-26', messages: 1, segments: 1, amount: 2.5, by_status: { ...ZERO, failed: 1 }, delivery_rate: null, failure_rate: 1 },
    ]);
    expect(answer.body.data.totals).toMatchObject({ messages: 8, by_status: { ...ZERO, delivered: 4, sent: 1, failed: 2, undelivered: 1 } });
  });

  it('counts Europe/Paris weeks from local Monday midnight, the week of the October change holding its 169 hours', async () => {
    const tenant = await createTenant(t);
    // Monday 2026-10-19 00:00 CEST is 22:00 UTC on the 18th; Monday the 26th 00:00 CET is 23:00 UTC on the 25th
    for (const at of [
      '2026-10-18T21:59:00Z', // Sunday 23:59 CEST: the week of the 12th
      '2026-10-18T22:00:00Z', // Monday 00:00 CEST: the week of the 19th
      '2026-10-25T00:30:00Z', // 02:30 CEST
      '2026-10-25T01:30:00Z', // 02:30 CET
      '2026-10-25T22:59:00Z', // Sunday 23:59 CET
      '2026-10-25T23:00:00Z', // Monday 00:00 CET: the week of the 26th
    ])
      await write(tenant, at);

    const weeks = await bucketCounts(tenant, {
      created_from: '2026-10-12T00:00:00+02:00',
      created_to: '2026-11-02T00:00:00+01:00',
      timezone: 'Europe/Paris',
      granularity: 'week',
    });

    expect(weeks).toEqual([
      ['2026-10-12', 1],
      ['2026-10-19', 4],
      ['2026-10-26', 1],
    ]);
  });

  it('counts the Europe/Paris month of March from local midnight in CET to local midnight in CEST', async () => {
    const tenant = await createTenant(t);
    // March 1 00:00 CET is 23:00 UTC on February 28; April 1 00:00 CEST is 22:00 UTC on March 31
    for (const at of [
      '2026-02-28T22:59:00Z', // February 28, 23:59
      '2026-02-28T23:00:00Z', // March 1, 00:00
      '2026-03-29T01:30:00Z', // March 29, 03:30 CEST, just after the change
      '2026-03-31T21:59:00Z', // March 31, 23:59
      '2026-03-31T22:00:00Z', // April 1, 00:00
    ])
      await write(tenant, at);

    const months = await bucketCounts(tenant, {
      created_from: '2026-02-01T00:00:00+01:00',
      created_to: '2026-05-01T00:00:00+02:00',
      timezone: 'Europe/Paris',
      granularity: 'month',
    });

    expect(months).toEqual([
      ['2026-02', 1],
      ['2026-03', 3],
      ['2026-04', 1],
    ]);
  });

  it('counts by local day in Asia/Kolkata (UTC+05:30), where local midnight is half past a UTC hour', async () => {
    const tenant = await createTenant(t);
    for (const time of ['2026-05-10T18:29:00.000Z', '2026-05-10T18:30:00.000Z', '2026-05-10T18:45:00.000Z', '2026-05-11T18:29:59.000Z']) await write(tenant, time);

    const answer = await metrics(tenant, { created_from: '2026-05-10T00:00:00+05:30', created_to: '2026-05-12T00:00:00+05:30', timezone: 'Asia/Kolkata' }).expect(200);

    expect(periodCounts(answer.body.data.buckets)).toEqual([
      ['2026-05-10', 1],
      ['2026-05-11', 3],
    ]);
    expect(answer.body.data.totals.delivery_rate).toBeNull();
  });

  it('buckets by ISO week (from Monday) and by month, every period listed, empty ones included; none gives the totals only', async () => {
    const tenant = await createTenant(t);
    for (const time of ['2026-06-01T10:00:00Z', '2026-06-07T10:00:00Z', '2026-06-08T10:00:00Z', '2026-07-02T10:00:00Z']) await write(tenant, time);
    const range = { created_from: '2026-06-01T00:00:00Z', created_to: '2026-07-06T00:00:00Z' };

    const weeks = await bucketCounts(tenant, { ...range, granularity: 'week' });
    const months = await bucketCounts(tenant, { ...range, granularity: 'month' });
    const none = (await metrics(tenant, { ...range, granularity: 'none' }).expect(200)).body.data;

    expect(weeks).toEqual([
      ['2026-06-01', 2], ['2026-06-08', 1], ['2026-06-15', 0], ['2026-06-22', 0], ['2026-06-29', 1],
    ]);
    expect(months).toEqual([['2026-06', 3], ['2026-07', 1]]);
    expect([none.buckets, none.totals.messages]).toEqual([[], 4]);
  });

  it('filters by type, sender, campaign and country, and counts only the key mode and the account', async () => {
    const [tenant, other] = [await createTenant(t), await createTenant(t)];
    const campaign = newId();
    await write(tenant, '2026-08-01T10:00:00Z', { type: 'otp' });
    await write(tenant, '2026-08-01T11:00:00Z', { campaignId: campaign, country: 'SN', recipient: '+221771234567' });
    await write(tenant, '2026-08-01T12:00:00Z', { senderId: null });
    await write(tenant, '2026-08-01T13:00:00Z', { test: true });
    await write(other, '2026-08-01T14:00:00Z');
    const count = async (query: Record<string, string>, who = tenant) =>
      (await metrics(who, { created_from: '2026-08-01T00:00:00Z', created_to: '2026-08-02T00:00:00Z', granularity: 'none', ...query }).expect(200)).body.data.totals.messages;
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);

    expect(await count({})).toBe(3);
    expect(await count({ type: 'otp' })).toBe(1);
    expect(await count({ type: 'sms' })).toBe(2);
    expect(await count({ campaign_id: campaign })).toBe(1);
    expect(await count({ country: 'SN' })).toBe(1);
    expect(await count({ sender_id: tenant.senderId })).toBe(2);
    expect(await count({}, { ...tenant, auth: `Bearer ${api_key}` })).toBe(1);
  });

  const refusals: Array<[query: Record<string, string | undefined>, error: string]> = [
    [{ created_from: undefined }, 'created_from: est obligatoire'],
    [{ created_to: undefined }, 'created_to: est obligatoire'],
    [{ created_from: '2026-01-01T00:00:00', created_to: '2026-01-02T00:00:00Z' }, 'created_from: date ISO 8601 avec fuseau attendue'],
    [{ created_from: '2025-01-01T00:00:00Z', created_to: '2026-01-03T00:00:00Z' }, 'created_from: intervalle de 366 jours maximum'],
    [{ created_from: '2026-01-02T00:00:00Z', created_to: '2026-01-02T00:00:00Z' }, 'created_to: doit être après created_from'],
    [{ granularity: 'hour' }, 'granularity: doit valoir day, week, month ou none'],
    [{ timezone: 'Paris' }, 'timezone: fuseau horaire IANA inconnu (par exemple Africa/Abidjan)'],
    [{ type: 'mms' }, 'type: doit valoir otp ou sms'],
    [{ sender_id: 'x' }, 'sender_id: doit être un identifiant (UUID)'],
    [{ country: 'ci' }, 'country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'],
  ];
  it.each(refusals.map(([query, error]) => ({ query, error })))('answers 400 « $error »', async ({ query, error }) => {
    const tenant = await createTenant(t);
    const given = Object.entries({ created_from: '2026-01-01T00:00:00Z', created_to: '2026-01-02T00:00:00Z', ...query }).filter(([, value]) => value !== undefined);
    const body = (await metrics(tenant, Object.fromEntries(given) as Record<string, string>)).body;
    expect(body).toEqual(invalid(error));
  });

  it('leaves the Prometheus scrape endpoint at /metrics', async () => {
    expect((await t.http().get('/metrics')).status).toBe(404);
  });
});
