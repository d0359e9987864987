import { LOG_RECEIPT_QUEUE } from '../src/delivery/providers/log-receipts.worker.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const NOT_FOUND = { status: 404, message: 'Non trouvé', errors: ['uniq_id: aucun code OTP pour cet identifiant'] };
const ci = (n: number) => `+22507071${String(n).padStart(5, '0')}`;

/** `GET /v1/otp/{uniq_id}` and `GET /v1/otp` (SPEC-3 §1.9): an OTP's state and delivery, never its code. */
describe('GET /v1/otp', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    // receipts come when the test lets them (it drains their queue after moving the clock)
    t = await startTestApp({ LOG_RECEIPT_DELAY_MS: '60000' });
    tenant = await createTenant(t);
  });
  afterAll(() => t?.close());

  const send = (body: object, owner = tenant) => t.http().post('/v1/otp/send').set('Authorization', owner.auth).send(body).expect(200);
  const verify = (to: string, code: string) => t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to, code });
  const read = (id: string, owner = tenant) => t.http().get(`/v1/otp/${id}`).set('Authorization', owner.auth);
  const list = (query: Record<string, string>, owner = tenant) => t.http().get('/v1/otp').query(query).set('Authorization', owner.auth);
  const stateOf = async (id: string) => (await read(id).expect(200)).body.data.state as string;

  it('reads an SMS OTP: active, its delivery from pending to sent to delivered, its SMS record, never the code', async () => {
    const [sent, pending] = await t.withDeliveryPaused(async () => {
      const accepted = (await send(smsBody(ci(1), { application_name: 'MonApp', otp_expiry: 600 }))).body.data;
      return [accepted, await read(accepted.uniq_id).expect(200)] as const;
    });
    await t.deliver();
    const handedOver = (await read(sent.uniq_id).expect(200)).body.data;
    t.clock.advance(61);
    await t.drain(LOG_RECEIPT_QUEUE);
    const delivered = (await read(sent.uniq_id).expect(200)).body.data;

    expect(pending.body).toEqual({
      status: 200,
      message: 'succès',
      data: {
        uniq_id: sent.uniq_id,
        to: ci(1),
        channel: 'sms',
        state: 'active',
        delivery_status: 'pending',
        attempts: 0,
        application_name: 'MonApp',
        send_at: expect.stringMatching(TIME),
        expires_at: expect.stringMatching(TIME),
        verified_at: null,
        sms_uniq_id: sent.uniq_id,
      },
    });
    expect(Math.floor(new Date(pending.body.data.expires_at).getTime() / 1000)).toBe(sent.expires_at);
    expect(JSON.stringify(pending.body)).not.toContain(sent.code);
    expect(handedOver.delivery_status).toBe('sent');
    expect(delivered.delivery_status).toBe('delivered');
    const sms = (await t.http().get(`/v1/sms/out/${sent.uniq_id}`).set('Authorization', tenant.auth).expect(200)).body.data;
    expect(sms).toMatchObject({ status: 'delivered', provider: 'log', provider_status: 'DELIVRD' });
  });

  it('reads an e-mail OTP, sent by the log transport', async () => {
    const sent = (await send(emailBody('Awa@Example.com'))).body.data;
    await t.deliver();

    expect((await read(sent.uniq_id).expect(200)).body.data).toMatchObject({
      uniq_id: sent.uniq_id,
      to: 'awa@example.com',
      channel: 'email',
      state: 'active',
      delivery_status: 'sent',
      sms_uniq_id: null,
    });
  });

  it('follows the states a verification decides: verified, superseded, locked, expired', async () => {
    const verified = (await send(smsBody(ci(2)))).body.data;
    await verify(ci(2), verified.code).expect(200);
    const superseded = (await send(smsBody(ci(3)))).body.data;
    const latest = (await send(smsBody(ci(3)))).body.data;
    const locked = (await send(smsBody(ci(4)))).body.data;
    const wrong = locked.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await verify(ci(4), wrong).expect(400);
    const expiring = (await send(smsBody(ci(5), { otp_expiry: 60 }))).body.data;

    expect((await read(verified.uniq_id).expect(200)).body.data).toMatchObject({ state: 'verified', verified_at: expect.stringMatching(TIME) });
    expect(await stateOf(superseded.uniq_id)).toBe('superseded');
    expect(await stateOf(latest.uniq_id)).toBe('active');
    expect((await read(locked.uniq_id).expect(200)).body.data).toMatchObject({ state: 'locked', attempts: 5 });
    expect(await stateOf(expiring.uniq_id)).toBe('active');
    t.clock.advance(61);
    expect(await stateOf(expiring.uniq_id)).toBe('expired');
    expect(await stateOf(locked.uniq_id)).toBe('locked');
  });

  it('lists the OTPs newest first with the filters to, state, channel and dates, in pages', async () => {
    const owner = await createTenant(t);
    const start = t.clock.now().toISOString();
    const first = (await send(smsBody(ci(10)), owner)).body.data;
    const second = (await send(emailBody('liste@example.com'), owner)).body.data;
    const third = (await send(smsBody(ci(11)), owner)).body.data;
    await t.http().post('/v1/otp/verify').set('Authorization', owner.auth).send({ to: ci(11), code: third.code }).expect(200);
    const ids = async (query: Record<string, string>) => (await list(query, owner).expect(200)).body.data.items.map((otp: { uniq_id: string }) => otp.uniq_id);

    expect(await ids({})).toEqual([third.uniq_id, second.uniq_id, first.uniq_id]);
    expect(await ids({ to: '00225 07 07 10 00 10' })).toEqual([first.uniq_id]);
    expect(await ids({ to: 'LISTE@example.com' })).toEqual([second.uniq_id]);
    expect(await ids({ channel: 'email' })).toEqual([second.uniq_id]);
    expect(await ids({ channel: 'sms', state: 'active' })).toEqual([first.uniq_id]);
    expect(await ids({ state: 'verified' })).toEqual([third.uniq_id]);
    expect(await ids({ created_from: start, created_to: new Date(t.clock.now().getTime() + 1000).toISOString() })).toHaveLength(3);
    expect(await ids({ created_to: start })).toEqual([]);
    const page = (await list({ limit: '2' }, owner).expect(200)).body.data;
    expect(page.items.map((otp: { uniq_id: string }) => otp.uniq_id)).toEqual([third.uniq_id, second.uniq_id]);
    expect(await ids({ limit: '2', cursor: page.next_cursor })).toEqual([first.uniq_id]);
    expect(JSON.stringify(page)).not.toContain(third.code);
  });

  it('refuses bad filters, and answers 404 for an unknown, malformed or foreign id', async () => {
    const stranger = await createTenant(t);
    const theirs = (await send(smsBody(ci(20)), stranger)).body.data;

    expect((await list({ state: 'pending' })).body).toEqual(invalid('state: doit valoir active, verified, expired, superseded ou locked'));
    expect((await list({ channel: 'SMS' })).body).toEqual(invalid('channel: doit valoir sms ou email'));
    expect((await list({ to: '12' })).body).toEqual(invalid('to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'));
    expect((await list({ created_from: '2026-11-01' })).body).toEqual(invalid('created_from: date ISO 8601 avec fuseau attendue'));
    expect((await read(theirs.uniq_id)).body).toEqual(NOT_FOUND);
    expect((await read('0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10')).body).toEqual(NOT_FOUND);
    expect((await read('pas-un-id')).body).toEqual(NOT_FOUND);
  });
});
