import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TO = '+2250707070707';
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const CODE_INVALID = { status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] };
const EXPIRED = { status: 410, message: 'code_otp_expir', errors: ['code: le code OTP a expiré'] };

/** Another code of the same length, different at every position. */
const wrongCode = (code: string): string =>
  code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10)).replace(/[A-Z]/g, (letter) => (letter === 'Z' ? 'A' : 'Z'));

const secondsBetween = (from: string, to: string): number =>
  (Date.parse(`${to.replace(' ', 'T')}Z`) - Date.parse(`${from.replace(' ', 'T')}Z`)) / 1000;

describe('POST /v1/otp/verify', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const send = async (tenant: Tenant, body: object): Promise<{ uniq_id: string; code: string; expires_at: number }> => {
    const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(body);
    expect(res.status).toBe(200);
    // handed over now, so that moving the clock later cannot fail it as not delivered in time
    await t.deliver();
    return res.body.data;
  };
  const verify = (tenant: Tenant, body: object) => t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send(body);
  const failWrong = async (tenant: Tenant, to: string, code: string, times: number) => {
    for (let i = 0; i < times; i++) expect((await verify(tenant, { to, code: wrongCode(code) })).body).toEqual(CODE_INVALID);
  };

  describe('success', () => {
    it('answers the whole verification', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO, { application_name: 'MonApp' }));
      t.clock.advance(120);

      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 200,
        message: 'success',
        data: {
          uniq_id: sent.uniq_id,
          to: TO,
          channel: 'sms',
          verified_at: expect.stringMatching(DATE_TIME),
          send_at: expect.stringMatching(DATE_TIME),
          application_name: 'MonApp',
        },
      });
      const elapsed = secondsBetween(res.body.data.send_at, res.body.data.verified_at);
      expect(elapsed).toBeGreaterThanOrEqual(119);
      expect(elapsed).toBeLessThanOrEqual(121);
    });

    it('gives send_at and verified_at in UTC', async () => {
      const tenant = await createTenant(t);
      const before = t.clock.now().toISOString().slice(0, 19).replace('T', ' ');
      const sent = await send(tenant, smsBody(TO));
      const res = await verify(tenant, { to: TO, code: sent.code });
      const after = t.clock.now().toISOString().slice(0, 19).replace('T', ' ');

      expect(res.body.data.send_at >= before && res.body.data.send_at <= after).toBe(true);
      expect(res.body.data.verified_at >= before && res.body.data.verified_at <= after).toBe(true);
    });

    it('answers application_name null when none was given', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.body.data.application_name).toBeNull();
    });

    it('verifies an e-mail OTP, with the channel in lower case', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, emailBody('awa@example.com'));
      const res = await verify(tenant, { to: 'AWA@example.com', code: sent.code });
      expect(res.body).toMatchObject({ status: 200, data: { uniq_id: sent.uniq_id, to: 'awa@example.com', channel: 'email' } });
    });

    it.each(['002250707070707', '2250707070707', '+225 07 07 07 07 07'])('accepts the recipient written %s', async (to) => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      const res = await verify(tenant, { to, code: sent.code });
      expect(res.body).toMatchObject({ status: 200, message: 'success', data: { to: TO } });
    });

    it('verifies a code sent to the 00 form with the E.164 form', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody('002250707070707'));
      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.body).toMatchObject({ status: 200, data: { uniq_id: sent.uniq_id, to: TO } });
    });

    it('verifies an alphanumeric code without case', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO, { otp_type: 'alphanumeric' }));
      const res = await verify(tenant, { to: TO, code: sent.code.toLowerCase() });
      expect(res.body).toMatchObject({ status: 200, data: { uniq_id: sent.uniq_id } });
    });

    it('verifies the code just before it expires', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO, { otp_expiry: 60 }));
      t.clock.advance(58);
      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.body).toMatchObject({ status: 200, message: 'success' });
    });

    it('verifies the right code after fewer than 5 wrong ones', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      await failWrong(tenant, TO, sent.code, 4);
      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.body).toMatchObject({ status: 200, message: 'success' });
    });
  });

  describe('invalid code', () => {
    it('uses a code only once', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      expect((await verify(tenant, { to: TO, code: sent.code })).status).toBe(200);

      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CODE_INVALID);
    });

    it('refuses a wrong code', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      const res = await verify(tenant, { to: TO, code: wrongCode(sent.code) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CODE_INVALID);
    });

    it('answers an unknown recipient exactly like a wrong code', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      const wrong = await verify(tenant, { to: TO, code: wrongCode(sent.code) });
      const unknown = await verify(tenant, { to: '+2250707070708', code: sent.code });

      expect(unknown.status).toBe(wrong.status);
      expect(unknown.body).toEqual(wrong.body);
      expect(unknown.headers['retry-after']).toBeUndefined();
    });

    it('refuses a superseded code', async () => {
      const tenant = await createTenant(t);
      const first = await send(tenant, smsBody(TO, { otp_type: 'alphanumeric' }));
      const second = await send(tenant, smsBody(TO, { otp_type: 'alphanumeric' }));

      const res = await verify(tenant, { to: TO, code: first.code });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CODE_INVALID);
      expect((await verify(tenant, { to: TO, code: second.code })).body).toMatchObject({ status: 200, data: { uniq_id: second.uniq_id } });
    });

    it('supersedes an earlier code sent before the send window that is still alive, and no other recipient’s', async () => {
      const tenant = await createTenant(t);
      const first = await send(tenant, smsBody(TO, { otp_expiry: 3600 }));
      const other = await send(tenant, smsBody('+2250707070709'));
      // past the 900 s send window, within the first code's hour
      t.clock.advance(1000);
      const second = await send(tenant, smsBody(TO));

      const statuses = await t.database.run((sql) =>
        sql.all<{ uniq_id: string; status: string }>('SELECT uniq_id, status FROM otp WHERE account_id = ?', [tenant.accountId]),
      );
      expect(Object.fromEntries(statuses.map((otp) => [otp.uniq_id, otp.status]))).toEqual({
        [first.uniq_id]: 'superseded',
        [other.uniq_id]: 'pending',
        [second.uniq_id]: 'pending',
      });
      expect((await verify(tenant, { to: TO, code: first.code })).body).toEqual(CODE_INVALID);
      expect((await verify(tenant, { to: TO, code: second.code })).body).toMatchObject({ status: 200, data: { uniq_id: second.uniq_id } });
    });

    it('refuses a code whose message could not be delivered, and refunds it', async () => {
      const tenant = await createTenant(t);
      const sent = await t.withDeliveryPaused(async () => {
        const otp = await send(tenant, smsBody(TO, { otp_expiry: 60 }));
        t.clock.advance(61);
        return otp;
      });
      await t.deliver();

      const sms = await t.http().get(`/v1/sms/out/${sent.uniq_id}`).set('Authorization', tenant.auth);
      expect(sms.body.data.status).toBe('failed');
      expect((await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance).toBe(1000);
      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CODE_INVALID);
    });

    it("does not verify another account's code", async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));

      expect((await verify(other, { to: TO, code: sent.code })).body).toEqual(CODE_INVALID);
      expect((await verify(tenant, { to: TO, code: sent.code })).body).toMatchObject({ status: 200, data: { uniq_id: sent.uniq_id } });
    });
  });

  describe('expiry', () => {
    it('answers 410 once the code has expired', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO, { otp_expiry: 60 }));
      t.clock.advance(61);

      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.status).toBe(410);
      expect(res.body).toEqual(EXPIRED);
    });

    it('expires after 300 s by default', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      t.clock.advance(301);
      expect((await verify(tenant, { to: TO, code: sent.code })).body).toEqual(EXPIRED);
    });

    it('answers 410 for a wrong code too once the code has expired', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO, { otp_expiry: 60 }));
      t.clock.advance(61);
      expect((await verify(tenant, { to: TO, code: wrongCode(sent.code) })).body).toEqual(EXPIRED);
    });

    it('answers 410 rather than 429 for an expired code that also had 5 wrong attempts', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO, { otp_expiry: 60 }));
      await failWrong(tenant, TO, sent.code, 5);
      t.clock.advance(61);

      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.status).toBe(410);
      expect(res.body).toEqual(EXPIRED);
    });
  });

  describe('attempts', () => {
    it('locks the code after 5 wrong ones, even for the right code, with Retry-After', async () => {
      const tenant = await createTenant(t);
      const sent = await send(tenant, smsBody(TO));
      await failWrong(tenant, TO, sent.code, 5);

      const res = await verify(tenant, { to: TO, code: sent.code });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ status: 429, message: 'trop_de_tentatives', errors: [expect.any(String)] });
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('lets a new code be verified after the previous one was locked', async () => {
      const tenant = await createTenant(t);
      const locked = await send(tenant, smsBody(TO));
      await failWrong(tenant, TO, locked.code, 5);
      const sent = await send(tenant, smsBody(TO));

      expect((await verify(tenant, { to: TO, code: sent.code })).body).toMatchObject({ status: 200, data: { uniq_id: sent.uniq_id } });
    });

    it('allows 19 failed verifications of a recipient', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 3; i++) await failWrong(tenant, TO, (await send(tenant, smsBody(TO))).code, 5);
      const sent = await send(tenant, smsBody(TO));
      await failWrong(tenant, TO, sent.code, 4);

      expect((await verify(tenant, { to: TO, code: sent.code })).body).toMatchObject({ status: 200, message: 'success' });
    });

    it('locks the recipient after 20 failed verifications in 24 h, even for a right code, until they age out', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 4; i++) await failWrong(tenant, TO, (await send(tenant, smsBody(TO))).code, 5);
      const sent = await send(tenant, smsBody(TO));

      const locked = await verify(tenant, { to: TO, code: sent.code });
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({ status: 429, message: 'trop_de_tentatives', errors: [expect.any(String)] });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(86_400);

      t.clock.advance(86_400);
      const fresh = await send(tenant, smsBody(TO));
      expect((await verify(tenant, { to: TO, code: fresh.code })).body).toMatchObject({ status: 200, data: { uniq_id: fresh.uniq_id } });
    });

    it('counts verifications with no code to check towards the recipient limit', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 20; i++) expect((await verify(tenant, { to: TO, code: '123456' })).body).toEqual(CODE_INVALID);
      const sent = await send(tenant, smsBody(TO));

      expect((await verify(tenant, { to: TO, code: sent.code })).body).toMatchObject({ status: 429, message: 'trop_de_tentatives' });
    });

    it('keeps the recipient locked once the send window has passed', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 5; i++) {
        const sent = await send(tenant, smsBody(TO));
        await failWrong(tenant, TO, sent.code, i < 4 ? 5 : 0);
      }
      t.clock.advance(901);
      const sent = await send(tenant, smsBody(TO));

      expect((await verify(tenant, { to: TO, code: sent.code })).body).toMatchObject({ status: 429, message: 'trop_de_tentatives' });
    });

    it('locks only that recipient', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 20; i++) await verify(tenant, { to: TO, code: '123456' });
      const sent = await send(tenant, smsBody('+2250707070708'));

      expect((await verify(tenant, { to: '+2250707070708', code: sent.code })).body).toMatchObject({ status: 200, message: 'success' });
    });
  });

  describe('validation', () => {
    const invalid = (errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });

    it('requires to and code', async () => {
      const tenant = await createTenant(t);
      const res = await verify(tenant, {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(['to: est obligatoire', 'code: est obligatoire']));
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a code that is not a string', { to: TO, code: 123456 }, 'code: doit être une chaîne de caractères'],
      ['an empty code', { to: TO, code: '' }, 'code: ne doit pas être vide'],
      ['a to that is not a string', { to: 2250707070707, code: '123456' }, 'to: doit être une chaîne de caractères'],
      [
        'a to that is not a phone number',
        { to: 'not-a-number', code: '123456' },
        'to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)',
      ],
      ['a to that is not an e-mail address', { to: 'awa@', code: '123456' }, 'to: adresse e-mail invalide'],
    ])('refuses %s', async (_case, body, error) => {
      const tenant = await createTenant(t);
      const res = await verify(tenant, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid([error]));
    });

    it('refuses a body that is not valid JSON', async () => {
      const tenant = await createTenant(t);
      const res = await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).set('Content-Type', 'application/json').send('{"to":');
      expect(res.body).toEqual(invalid(['body: JSON invalide']));
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().post('/v1/otp/verify').send({ to: TO, code: '123456' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Non autorisé' });
    });
  });
});
