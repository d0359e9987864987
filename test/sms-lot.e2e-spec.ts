import { SANDBOX_RECIPIENTS } from '../src/delivery/providers/sandbox.providers.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { storedMessage, storeMessages } from './support/messages.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const HOUR_MS = 3_600_000;
const CAMPAIGN = '0193a3c2-0000-7000-8000-00000000ca02';
const NONE = { scheduled: 0, pending: 0, sent: 0, delivered: 0, undelivered: 0, failed: 0, cancelled: 0 };
const NOT_FOUND = { status: 404, message: 'Non trouvé', errors: ['lot: aucun SMS pour ce lot'] };
const ci = (n: number) => `+22507090${String(n).padStart(5, '0')}`;

describe('GET /v1/sms/lot/{lot}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const summary = (tenant: Tenant, lot: string) => t.http().get(`/v1/sms/lot/${encodeURIComponent(lot)}`).set('Authorization', tenant.auth);
  const send = async (tenant: Tenant, body: object) => (await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send(body).expect(200)).body.data;
  const later = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR_MS).toISOString();

  it('counts the messages of a lot by status, with what it costs net of refunds and when it was accepted', async () => {
    const tenant = await createTenant(t);
    const now = await t.withDeliveryPaused(() => send(tenant, { to: [ci(1), ci(2), ci(3), ci(4)], message: 'Bonjour', lot: 'relance-mars' }));
    await t.deliver();
    const [first, second, third] = now.messages.map((message: { uniq_id: string }) => message.uniq_id);
    await t.database.run(async (sql) => {
      await sql.run("UPDATE message_out SET status = 'delivered' WHERE uniq_id IN (?, ?)", [first, second]);
      await sql.run("UPDATE message_out SET status = 'failed' WHERE uniq_id = ?", [third]);
    });

    const response = await summary(tenant, 'relance-mars').expect(200);

    expect(response.body).toEqual({
      status: 200,
      message: 'succès',
      data: {
        lot: 'relance-mars',
        campaign_id: null,
        count: 4,
        amount: 7.5,
        by_status: { ...NONE, sent: 1, delivered: 2, failed: 1 },
        created_at: new Date(Date.parse(now.messages[0].send_at)).toISOString(),
      },
    });
  });

  it('follows a scheduled lot as part of it is cancelled', async () => {
    const tenant = await createTenant(t);
    const { lot, messages } = await send(tenant, { to: [ci(11), ci(12), ci(13)], message: 'Soldes demain', send_at: later(20) });
    expect((await summary(tenant, lot).expect(200)).body.data).toMatchObject({ count: 3, amount: 7.5, by_status: { ...NONE, scheduled: 3 } });

    await t.http().post(`/v1/sms/out/${messages[1].uniq_id}/cancel`).set('Authorization', tenant.auth).expect(200);

    expect((await summary(tenant, lot).expect(200)).body.data).toMatchObject({ count: 3, amount: 5, by_status: { ...NONE, scheduled: 2, cancelled: 1 } });
  });

  it('names the campaign of a campaign lot, and summarises an OTP send by its lot', async () => {
    const tenant = await createTenant(t);
    const at = new Date(t.clock.now().getTime() - HOUR_MS);
    await storeMessages(t, [
      storedMessage(tenant, at, { lot: 'campagne-noel', campaignId: CAMPAIGN, status: 'delivered', amount: 500 }),
      storedMessage(tenant, new Date(at.getTime() + 1), { lot: 'campagne-noel', campaignId: CAMPAIGN, status: 'undelivered' }),
    ]);
    const otp = (await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(ci(20))).expect(200)).body.data;
    const otpLot = (await t.http().get(`/v1/sms/out/${otp.uniq_id}`).set('Authorization', tenant.auth).expect(200)).body.data.lot;

    expect((await summary(tenant, 'campagne-noel').expect(200)).body.data).toEqual({
      lot: 'campagne-noel',
      campaign_id: CAMPAIGN,
      count: 2,
      amount: 7.5,
      by_status: { ...NONE, delivered: 1, undelivered: 1 },
      created_at: at.toISOString(),
    });
    expect((await summary(tenant, otpLot).expect(200)).body.data).toMatchObject({ lot: otpLot, count: 1, amount: 2.5, campaign_id: null });
  });

  it("keeps a sandbox key's lots to it: outcomes of the magic numbers, nothing charged, unknown to the live key", async () => {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    const sandbox = { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };
    await send(sandbox, { to: Object.values(SANDBOX_RECIPIENTS), message: 'Essai', lot: 'essai' });
    await t.deliver();

    const data = await until(
      async () => (await summary(sandbox, 'essai').expect(200)).body.data,
      (read) => read.by_status.sent === 0,
    );

    expect(data).toMatchObject({ count: 3, amount: 0, by_status: { ...NONE, delivered: 1, undelivered: 1, failed: 1 } });
    expect((await summary(tenant, 'essai')).body).toEqual(NOT_FOUND);
  });

  it("answers 404 Non trouvé for an unknown lot, another account's lot and a text that cannot be a lot", async () => {
    const owner = await createTenant(t);
    const stranger = await createTenant(t);
    await send(owner, { to: ci(30), message: 'Bonjour', lot: 'a-moi' });

    for (const lot of ['inconnu', 'a-moi', 'pas un lot', 'x'.repeat(65)]) {
      expect({ lot, body: (await summary(stranger, lot)).body }).toEqual({ lot, body: NOT_FOUND });
    }
    expect((await summary(owner, 'a-moi')).status).toBe(200);
  });

  it('lets GET /sms/out/{id} find a message by a lot its client named', async () => {
    const tenant = await createTenant(t);
    const { messages } = await send(tenant, { to: [ci(40), ci(41)], message: 'Bonjour', lot: 'avril_2026' });

    const read = await t.http().get('/v1/sms/out/avril_2026').set('Authorization', tenant.auth).expect(200);

    expect(read.body.data).toMatchObject({ uniq_id: messages[0].uniq_id, lot: 'avril_2026', to: ci(40), sandbox: false, type: 'sms' });
  });
});
