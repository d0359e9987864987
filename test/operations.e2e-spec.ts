import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, smsBody } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0001';
const NOT_READY = { status: 503, message: 'service_indisponible' };

describe('operations endpoints', () => {
  describe('health', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ OUTBOX_MAX_AGE_SECONDS: '60' });
    });
    afterAll(() => t?.close());

    it('answers /health/live without credentials', async () => {
      expect((await t.http().get('/health/live').expect(200)).body).toEqual({ status: 200, message: 'OK' });
    });

    it('reports the database and the outbox up on /health/ready', async () => {
      const res = await t.http().get('/health/ready').expect(200);
      expect(res.body).toMatchObject({
        status: 200,
        message: 'OK',
        data: { status: 'ok', info: { database: { status: 'up' }, outbox: { status: 'up', oldestAgeSeconds: 0 } } },
      });
      expect(res.body.data.info).not.toHaveProperty('smpp');
    });

    it('is not ready while a message has waited longer than OUTBOX_MAX_AGE_SECONDS, and ready again once it left', async () => {
      const tenant = await createTenant(t);
      await t.withDeliveryPaused(async () => {
        await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070707', { otp_expiry: 3600 })).expect(200);
        t.clock.advance(30);
        expect((await t.http().get('/health/ready').expect(200)).body.data.info.outbox).toEqual({ status: 'up', oldestAgeSeconds: 30 });
        t.clock.advance(31);
        const res = await t.http().get('/health/ready').expect(503);
        expect(res.body).toEqual({ ...NOT_READY, data: { database: { status: 'up' }, outbox: { status: 'down' } } });
      });
      await t.deliver();
      await t.http().get('/health/ready').expect(200);
    });
  });

  describe('health with SMPP', () => {
    const smsc = new FakeSmsc();
    let t: TestApp;

    beforeAll(async () => {
      await smsc.start();
      t = await startTestApp({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url });
    });
    afterAll(async () => {
      await t?.close();
      await smsc?.stop();
      Object.assign(process.env, { SMS_PROVIDER: 'log', SMPP_URL: '' });
    });

    it('is ready while bound to the SMSC, and not ready when the SMSC is gone', async () => {
      const ready = await until(() => t.http().get('/health/ready'), (res) => res.status === 200);
      expect(ready.body.data.info.smpp).toEqual({ status: 'up', state: 'bound' });

      await smsc.stop();
      const down = await until(() => t.http().get('/health/ready'), (res) => res.status === 503);
      expect(down.body).toEqual({ ...NOT_READY, data: { database: { status: 'up' }, outbox: { status: 'up' }, smpp: { status: 'down' } } });

      await smsc.start();
      await until(() => t.http().get('/health/ready'), (res) => res.status === 200);
    });
  });

  describe('metrics', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ METRICS_TOKEN });
    });
    afterAll(async () => {
      await t?.close();
      process.env.METRICS_TOKEN = '';
    });

    const scrape = () => t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);

    it.each([
      ['no credentials', undefined],
      ['a wrong token', 'Bearer metrics-token-for-the-scraper-0002'],
      ['an API key', 'Bearer mk_live_0000000000000000000000000000000000000000'],
    ])('refuses a scrape with %s', async (_, authorization) => {
      const request = t.http().get('/metrics');
      const res = await (authorization ? request.set('Authorization', authorization) : request);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Non autorisé' });
    });

    it('counts requests, OTP outcomes and messages in the Prometheus text format', async () => {
      const tenant = await createTenant(t);
      const send = () => t.http().post('/v1/otp/send').set('Authorization', tenant.auth);
      const sent = (await send().send(smsBody('+2250707070707')).expect(200)).body.data as { code: string };
      await send().send(smsBody('not a number')).expect(400);
      await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to: '+2250707070707', code: sent.code }).expect(200);
      await t.deliver();

      const res = await scrape().expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = res.text;
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/v1\/otp\/send",status="200"\} 1$/m);
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/v1\/otp\/send",status="400"\} 1$/m);
      expect(text).toMatch(/^otp_sends_total\{channel="SMS",outcome="accepted",country="CI"\} 1$/m);
      expect(text).toMatch(/^otp_sends_total\{channel="SMS",outcome="invalid"\} 1$/m);
      expect(text).toMatch(/^otp_verifications_total\{outcome="verified"\} 1$/m);
      expect(text).toMatch(/^otp_verified_total\{country="CI"\} 1$/m);
      expect(text).toMatch(/^messages_status_total\{kind="sms",status="sent"\} 1$/m);
      expect(text).toMatch(/^outbox_backlog 0$/m);
      expect(text).toMatch(/^outbox_oldest_age_seconds 0$/m);
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
      if (process.env.DB_TYPE === 'mysql') expect(text).toMatch(/^db_pool_connections\{state="in_use"\} \d+$/m);
    });

    it('shows the outbox backlog while delivery waits', async () => {
      const tenant = await createTenant(t);
      await t.withDeliveryPaused(async () => {
        await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070708', { otp_expiry: 3600 })).expect(200);
        t.clock.advance(5);
        const text = (await scrape().expect(200)).text;
        expect(text).toMatch(/^outbox_backlog 1$/m);
        const age = Number(/^outbox_oldest_age_seconds (\S+)$/m.exec(text)?.[1]);
        expect(age).toBeGreaterThanOrEqual(5);
        expect(age).toBeLessThan(6);
      });
    });

    it('is not in the OpenAPI document', async () => {
      const doc = (await t.http().get('/docs-json').expect(200)).body;
      expect(Object.keys(doc.paths)).not.toContain('/metrics');
    });
  });

  it('serves no /metrics without METRICS_TOKEN', async () => {
    const t = await startTestApp({ METRICS_TOKEN: '' });
    try {
      const res = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, message: 'Non trouvé' });
    } finally {
      await t.close();
    }
  });
});
