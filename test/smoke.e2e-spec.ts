import { createTenant, smsBody } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('sends and verifies', async () => {
    const tenant = await createTenant(t);
    const sent = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070707'));
    expect(sent.body).toMatchObject({ status: 200, message: 'succès' });
    const verified = await t
      .http()
      .post('/v1/otp/verify')
      .set('Authorization', tenant.auth)
      .send({ to: '+2250707070707', code: sent.body.data.code });
    expect(verified.body).toMatchObject({ status: 200, message: 'success' });
    await t.deliver();
    const sms = await t.http().get(`/v1/sms/out/${sent.body.data.uniq_id}`).set('Authorization', tenant.auth);
    expect(sms.body.data.status).toBe('sent');
    const doc = await t.http().get('/docs-json');
    expect(doc.body.components.schemas.SendOtpDto.properties.channel).toBeDefined();
    expect(doc.body.components.schemas.OtpSendResultDto.properties.uniq_id).toBeDefined();
  });
});
