import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const PHONE_INVALID = 'to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)';
const PRICE_225 = '0191f3a0-0000-7000-8000-000000000225';
const TO = '+2250707070707';

describe('POST /v1/otp/send', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const send = (tenant: Tenant, body: object) => t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(body);
  const sendRaw = (tenant: Tenant, json: string) =>
    t.http().post('/v1/otp/send').set('Authorization', tenant.auth).set('Content-Type', 'application/json').send(json);
  const verify = (tenant: Tenant, to: string, code: string) =>
    t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to, code });
  const smsOut = (tenant: Tenant, id: string) => t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth);
  const balanceOf = async (tenant: Tenant): Promise<number> =>
    (await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance;
  const ledgerRows = async (tenant: Tenant): Promise<Array<[number, string]>> => {
    const rows = await t.database.run((sql) =>
      sql.all<{ amount: number | string; kind: string }>('SELECT amount, kind FROM ledger_entry WHERE account_id = ? ORDER BY id', [
        tenant.accountId,
      ]),
    );
    return rows.map((row) => [Number(row.amount), row.kind]);
  };
  const rowsOf = (table: 'otp' | 'message_out' | 'outbox', tenant: Tenant) =>
    t.database.run((sql) => sql.all<Record<string, unknown>>(`SELECT * FROM ${table} WHERE account_id = ?`, [tenant.accountId]));
  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);


  describe('success', () => {
    it('answers the whole envelope with a UUID v7, a six-digit code and an expiry 300 s ahead', async () => {
      const tenant = await createTenant(t);
      const before = nowSeconds();
      const res = await send(tenant, smsBody(TO));
      const after = nowSeconds();

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: { uniq_id: expect.stringMatching(UUID_V7), code: expect.stringMatching(/^\d{6}$/), expires_at: expect.any(Number) },
      });
      expect(res.body.data.expires_at).toBeGreaterThanOrEqual(before + 300);
      expect(res.body.data.expires_at).toBeLessThanOrEqual(after + 300);
    });

    it('gives a numeric code of the requested length', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { otp_type: 'numeric', otp_length: 4 }));
      expect(res.body.data.code).toMatch(/^\d{4}$/);
    });

    it('gives an alphanumeric code of upper-case letters and digits', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { otp_type: 'alphanumeric', otp_length: 5 }));
      expect(res.body.data.code).toMatch(/^[A-Z0-9]{5}$/);
    });

    it('takes otp_expiry in seconds', async () => {
      const tenant = await createTenant(t);
      const before = nowSeconds();
      const res = await send(tenant, smsBody(TO, { otp_expiry: 3600 }));
      const after = nowSeconds();
      expect(res.body.data.expires_at).toBeGreaterThanOrEqual(before + 3600);
      expect(res.body.data.expires_at).toBeLessThanOrEqual(after + 3600);
    });

    it.each([
      ['otp_length', 4],
      ['otp_length', 6],
      ['otp_expiry', 60],
      ['otp_expiry', 3600],
    ])('accepts %s = %p', async (field, value) => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { [field]: value }));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    });

    it('uses the default sender and the language fr when none is given', async () => {
      const tenant = await createTenant(t, { sender: 'MYBANK' });
      const res = await send(tenant, smsBody(TO));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data).toMatchObject({
        sender_id: tenant.senderId,
        sender: { id: tenant.senderId, name: 'MYBANK', email: null, phone: null },
        language: 'fr',
      });
    });

    it('accepts application_name and language', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { application_name: 'MonApp', language: 'en' }));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data.language).toBe('en');
      const verified = await verify(tenant, TO, res.body.data.code);
      expect(verified.body.data.application_name).toBe('MonApp');
    });

    it('refuses unknown fields, sending and charging nothing', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { colour: 'blue', otp_lenght: 99 }));
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['colour: champ inconnu', 'otp_lenght: champ inconnu'] });
      expect((await t.http().get('/v1/balance').set('Authorization', tenant.auth).expect(200)).body.data.balance).toBe(1000);
    });

    it('drops a __proto__ key instead of letting it reach the body', async () => {
      const tenant = await createTenant(t);
      const res = await sendRaw(
        tenant,
        `{"channel":"SMS","to":"${TO}","message":"Code ##OTP##","__proto__":{"otp_length":4,"polluted":true}}`,
      );
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
      expect(res.body.data.code).toMatch(/^\d{6}$/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('drops a constructor key instead of letting it reach the body', async () => {
      const tenant = await createTenant(t);
      const res = await sendRaw(
        tenant,
        `{"channel":"SMS","to":"${TO}","message":"Code ##OTP##","constructor":{"prototype":{"otp_length":4,"polluted":true}}}`,
      );
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
      expect(res.body.data.code).toMatch(/^\d{6}$/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('recipient', () => {
    it.each(['002250707070707', '2250707070707', '+225 07 07 07 07 07'])('stores %s in E.164 form', async (to) => {
      const tenant = await createTenant(t);
      const contact = await t.admin.createContact(tenant.accountId, { name: 'Awa', phone: TO });
      const res = await send(tenant, smsBody(to));

      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data).toMatchObject({
        contact_id: contact.contact_id,
        contact: { id: contact.contact_id, name: 'Awa', email: null, phone: TO },
      });
      const verified = await verify(tenant, TO, res.body.data.code);
      expect(verified.body).toMatchObject({ status: 200, data: { to: TO } });
    });

    it('stores an e-mail address in lower case', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, emailBody('Awa.Kone@Example.COM'));

      const [otp] = await rowsOf('otp', tenant);
      expect(otp.recipient).toBe('awa.kone@example.com');
      const verified = await verify(tenant, 'awa.kone@example.com', res.body.data.code);
      expect(verified.body).toMatchObject({ status: 200, data: { to: 'awa.kone@example.com', channel: 'email' } });
    });
  });

  describe('validation', () => {
    const invalid = (errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });

    it('names every missing required field', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(['channel: est obligatoire', 'to: est obligatoire', 'message: est obligatoire']));
    });

    it('gives one string per invalid field, its first failure', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { otp_length: '6', otp_expiry: 30, language: 'de' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        invalid(['otp_length: doit être un entier', 'otp_expiry: doit être compris entre 60 et 3600', 'language: doit valoir fr, en, es ou pt']),
      );
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['channel in lower case', { channel: 'sms' }, 'channel: doit valoir SMS ou EMAIL'],
      ['channel of another type', { channel: 1 }, 'channel: doit valoir SMS ou EMAIL'],
      ['to as a number', { to: 2250707070707 }, 'to: doit être une chaîne de caractères'],
      ['to not a phone number', { to: 'not-a-number' }, PHONE_INVALID],
      ['to too short', { to: '+225070' }, PHONE_INVALID],
      ['to an e-mail address on SMS', { to: 'awa@example.com' }, PHONE_INVALID],
      ['message without placeholder', { message: 'Votre code est' }, 'message: doit contenir ##OTP##'],
      ['message as a number', { message: 42 }, 'message: doit être une chaîne de caractères'],
      [
        'message too long once the code is in',
        { message: `${'a'.repeat(1595)}##OTP##` },
        'message: ne doit pas dépasser 1600 caractères une fois le code inséré',
      ],
      ['otp_type unknown', { otp_type: 'alpha' }, 'otp_type: doit valoir numeric ou alphanumeric'],
      ['otp_length as a string', { otp_length: '6' }, 'otp_length: doit être un entier'],
      ['otp_length fractional', { otp_length: 4.5 }, 'otp_length: doit être un entier'],
      ['otp_length below 4', { otp_length: 3 }, 'otp_length: doit être compris entre 4 et 6'],
      ['otp_length above 6', { otp_length: 7 }, 'otp_length: doit être compris entre 4 et 6'],
      ['otp_expiry as a string', { otp_expiry: '300' }, 'otp_expiry: doit être un entier'],
      ['otp_expiry below 60', { otp_expiry: 59 }, 'otp_expiry: doit être compris entre 60 et 3600'],
      ['otp_expiry above 3600', { otp_expiry: 3601 }, 'otp_expiry: doit être compris entre 60 et 3600'],
      ['use_local_number as a string', { use_local_number: 'true' }, 'use_local_number: doit être un booléen'],
      ['application_name empty', { application_name: '' }, 'application_name: ne doit pas être vide'],
      ['application_name as a number', { application_name: 7 }, 'application_name: doit être une chaîne de caractères'],
      ['language unknown', { language: 'de' }, 'language: doit valoir fr, en, es ou pt'],
      ['sender as a number', { sender: 12 }, 'sender: doit être une chaîne de caractères'],
      [
        'sender name too long',
        { sender: 'TWELVE CHARS' },
        'sender: doit faire 11 lettres, chiffres ou espaces au plus avec au moins une lettre, ou 15 chiffres au plus',
      ],
    ])('refuses %s', async (_case, override, error) => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, override));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid([error]));
    });

    it('accepts a message of exactly 1,600 characters once the code is in', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { message: `${'a'.repeat(1594)}##OTP##` }));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an invalid e-mail address', { to: 'awa@' }, 'to: adresse e-mail invalide'],
      ['a phone number', { to: TO }, 'to: adresse e-mail invalide'],
      ['a sender on two lines', { sender: 'Demo\r\nBcc: x@example.com' }, 'sender: doit tenir sur une ligne de 100 caractères au plus'],
    ])('refuses an e-mail OTP with %s', async (_case, override, error) => {
      const tenant = await createTenant(t);
      const res = await send(tenant, emailBody('awa@example.com', override));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid([error]));
    });

    it('refuses a body that is not valid JSON', async () => {
      const tenant = await createTenant(t);
      const res = await sendRaw(tenant, '{"channel": "SMS",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(['body: JSON invalide']));
    });

    it('refuses a body that is not a JSON object', async () => {
      const tenant = await createTenant(t);
      const res = await sendRaw(tenant, '[1, 2]');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(['body: doit être un objet JSON']));
    });

    it('refuses a body that is not JSON with 415', async () => {
      const tenant = await createTenant(t);
      const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).set('Content-Type', 'text/plain').send('hello');
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: application/json attendu'] });
    });

    it('refuses a body larger than the limit with 413', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { message: `${'a'.repeat(110_000)}##OTP##` }));
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ status: 413, message: 'requete_trop_volumineuse' });
    });
  });

  describe('authentication', () => {
    it('answers 401 without credentials, whatever the body', async () => {
      const res = await t.http().post('/v1/otp/send').send({ otp_length: 99 });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Non autorisé' });
    });

    it('answers 401 for an unknown API key', async () => {
      const res = await t
        .http()
        .post('/v1/otp/send')
        .set('Authorization', `Bearer mk_live_${'A'.repeat(43)}`)
        .send(smsBody(TO));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Non autorisé' });
    });
  });

  describe('sender', () => {
    it('refuses a sender the account has not registered', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { sender: 'OTHER' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['sender: expéditeur inconnu'] });
    });

    it("refuses another account's sender", async () => {
      const tenant = await createTenant(t);
      await createTenant(t, { sender: 'RIVAL' });
      const res = await send(tenant, smsBody(TO, { sender: 'RIVAL' }));
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['sender: expéditeur inconnu'] });
    });

    it('matches the sender without case', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(TO, { sender: 'demo' }));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data).toMatchObject({ sender_id: tenant.senderId, sender: { name: 'DEMO' } });
    });

    it('uses a second registered sender', async () => {
      const tenant = await createTenant(t);
      const { sender_id } = await t.admin.createSender(tenant.accountId, 'Boutique');
      const res = await send(tenant, smsBody(TO, { sender: 'BOUTIQUE' }));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data).toMatchObject({ sender_id, sender: { id: sender_id, name: 'Boutique', email: null, phone: null } });
    });

    it('takes any one-line display name for an e-mail', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, emailBody('awa@example.com', { sender: 'Ma Boutique en ligne' }));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    });
  });

  describe('cost', () => {
    it.each<[string, string, string, number, string, string]>([
      ['one GSM-7 segment to +225', TO, `${'a'.repeat(154)}##OTP##`, 2.5, '1', 'GSM7'],
      ['two GSM-7 segments to +225', TO, `${'a'.repeat(155)}##OTP##`, 5, '2', 'GSM7'],
      ['an extension character counted twice', TO, `${'a'.repeat(153)}€##OTP##`, 5, '2', 'GSM7'],
      ['three GSM-7 segments when an escape pair would straddle a split', TO, `${'a'.repeat(152)}€${'a'.repeat(146)}##OTP##`, 7.5, '3', 'GSM7'],
      ['one UCS-2 segment to +225', TO, `${'é'.repeat(10)}✓ ##OTP##`, 2.5, '1', 'UCS2'],
      ['two UCS-2 segments to +225', TO, `${'ж'.repeat(65)}##OTP##`, 5, '2', 'UCS2'],
      ['three UCS-2 segments when a surrogate pair would straddle a split', TO, `${'ж'.repeat(66)}😀${'ж'.repeat(60)}##OTP##`, 7.5, '3', 'UCS2'],
      ['one segment to +33', '+33612345678', 'Code ##OTP##', 4.5, '1', 'GSM7'],
      ['one segment to +221', '+221771234567', 'Code ##OTP##', 2.75, '1', 'GSM7'],
      ['one segment to a country without its own price', '+12015550123', 'Code ##OTP##', 5, '1', 'GSM7'],
    ])('charges %s', async (_case, to, message, cost, page, encoding) => {
      const tenant = await createTenant(t);
      const res = await send(tenant, smsBody(to, { message }));

      expect(await balanceOf(tenant)).toBe(1000 - cost);
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data).toMatchObject({ amount: cost, page, message_encoding: encoding });
      expect(await ledgerRows(tenant)).toEqual([
        [100000, 'opening'],
        [-cost * 100, 'debit'],
      ]);
    });

    it('charges the e-mail price for an e-mail OTP', async () => {
      const tenant = await createTenant(t);
      await send(tenant, emailBody('awa@example.com'));
      expect(await balanceOf(tenant)).toBe(999.5);
    });
  });

  describe('balance', () => {
    it('answers 402 with the cost and the balance when the balance does not cover the send', async () => {
      const tenant = await createTenant(t, { balance: '2.00' });
      const res = await send(tenant, smsBody(TO));
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 2.5, balance: 2 } });
    });

    it('stores nothing and debits nothing on 402', async () => {
      const tenant = await createTenant(t, { balance: '3.00' });
      const res = await send(tenant, smsBody(TO, { message: `${'a'.repeat(155)}##OTP##` }));
      expect(res.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 5, balance: 3 } });

      expect(await rowsOf('otp', tenant)).toEqual([]);
      expect(await rowsOf('message_out', tenant)).toEqual([]);
      expect(await rowsOf('outbox', tenant)).toEqual([]);
      expect(await balanceOf(tenant)).toBe(3);
      expect(await ledgerRows(tenant)).toEqual([[300, 'opening']]);
    });

    it('leaves no code behind on 402: the recipient has nothing to verify', async () => {
      const tenant = await createTenant(t, { balance: '1.00' });
      await send(tenant, smsBody(TO));
      const verified = await verify(tenant, TO, '000000');
      expect(verified.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] });
    });

    it('sends when the balance covers the cost exactly, down to zero', async () => {
      const tenant = await createTenant(t, { balance: '2.50' });
      const res = await send(tenant, smsBody(TO));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
      expect(await balanceOf(tenant)).toBe(0);
    });

    it('never debits a test key', async () => {
      const tenant = await createTenant(t);
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const res = await t.http().post('/v1/otp/send').set('Authorization', `Bearer ${api_key}`).send(smsBody(TO));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
      await t.deliver();

      expect(await balanceOf(tenant)).toBe(1000);
      expect(await ledgerRows(tenant)).toEqual([[100000, 'opening']]);
    });
  });

  describe('order of refusals', () => {
    async function exhaustLimit(tenant: Tenant, to: string) {
      for (let i = 0; i < 5; i++) expect((await send(tenant, smsBody(to))).status).toBe(200);
    }

    it('answers 400 before 429', async () => {
      const tenant = await createTenant(t);
      await exhaustLimit(tenant, TO);
      const res = await send(tenant, smsBody(TO, { otp_length: 9 }));
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['otp_length: doit être compris entre 4 et 6'] });
    });

    it('answers an unknown sender with 400 before 429', async () => {
      const tenant = await createTenant(t);
      await exhaustLimit(tenant, TO);
      const res = await send(tenant, smsBody(TO, { sender: 'OTHER' }));
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['sender: expéditeur inconnu'] });
    });

    it('answers 429 before 402', async () => {
      const tenant = await createTenant(t, { balance: '12.50' });
      await exhaustLimit(tenant, TO);
      expect(await balanceOf(tenant)).toBe(0);
      const res = await send(tenant, smsBody(TO));
      expect(res.status).toBe(429);
      expect(res.body.message).toBe('trop_de_requetes');
    });

    it('answers 400 before 402', async () => {
      const tenant = await createTenant(t, { balance: '0' });
      const res = await send(tenant, smsBody(TO, { otp_type: 'hex' }));
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['otp_type: doit valoir numeric ou alphanumeric'] });
    });
  });

  describe('per-recipient limit', () => {
    it('refuses the 6th send to one recipient within the window with 429 and Retry-After', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 5; i++) expect((await send(tenant, smsBody(TO))).status).toBe(200);

      const res = await send(tenant, smsBody(TO));
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ status: 429, message: 'trop_de_requetes', errors: [expect.any(String)] });
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(900);
    });

    it('counts the 6th send as refused: no debit, no record', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 6; i++) await send(tenant, smsBody(TO));
      expect(await balanceOf(tenant)).toBe(1000 - 5 * 2.5);
      expect(await rowsOf('otp', tenant)).toHaveLength(5);
    });

    it('gives a Retry-After that shrinks as the window slides, and sends again once it has passed', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 5; i++) await send(tenant, smsBody(TO));
      t.clock.advance(600);

      const refused = await send(tenant, smsBody(TO));
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(300);

      t.clock.advance(retryAfter);
      const res = await send(tenant, smsBody(TO));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    });

    it('counts the forms of one number as one recipient', async () => {
      const tenant = await createTenant(t);
      for (const to of [TO, '002250707070707', '2250707070707', '+225 07 07 07 07 07', TO]) await send(tenant, smsBody(to));
      const res = await send(tenant, smsBody('002250707070707'));
      expect(res.status).toBe(429);
    });

    it('does not limit another recipient of the same account', async () => {
      const tenant = await createTenant(t);
      for (let i = 0; i < 5; i++) await send(tenant, smsBody(TO));
      const res = await send(tenant, smsBody('+2250707070708'));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    });

    it('does not limit the same recipient for another account', async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      for (let i = 0; i < 5; i++) await send(tenant, smsBody(TO));
      const res = await send(other, smsBody(TO));
      expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    });
  });

  describe('SMS record', () => {
    it('stores an outgoing SMS with the code masked, pending until handed over, then sent', async () => {
      const tenant = await createTenant(t);
      let uniqId = '';
      let lot = '';
      await t.withDeliveryPaused(async () => {
        const res = await send(tenant, smsBody(TO, { message: 'Code ##OTP##, encore ##OTP##' }));
        uniqId = res.body.data.uniq_id;
        const sms = await smsOut(tenant, uniqId);
        expect(sms.body).toEqual({
          status: 200,
          message: 'succès',
          data: {
            company_id: tenant.accountId,
            uniq_id: uniqId,
            external_id: null,
            message_price_id: PRICE_225,
            type: 'otp',
            lot: expect.stringMatching(ULID),
            sender_id: tenant.senderId,
            contact_id: null,
            to: TO,
            campaign_id: null,
            message: 'Code ******, encore ******',
            page: '1',
            message_encoding: 'GSM7',
            amount: 2.5,
            send_at: expect.any(String),
            done_at: null,
            mccmnc: null,
            dlr_number_retry: 0,
            provider: null,
            provider_id: null,
            provider_status: null,
            source: 'api',
            status: 'pending',
            created_by: tenant.userId,
            webhook_url: null,
            webhook_response: null,
            retrieve: false,
            local_number: null,
            language: 'fr',
            sandbox: false,
            company: { id: tenant.accountId, name: expect.any(String), email: null, phone: null },
            message_price: { id: PRICE_225, description: "SMS Côte d'Ivoire", amount: 2.5 },
            sender: { id: tenant.senderId, name: 'DEMO', email: null, phone: null },
            contact: null,
            author: { id: tenant.userId, name: expect.any(String), email: null },
          },
        });
        lot = sms.body.data.lot;
      });

      await t.deliver();
      const sms = await smsOut(tenant, uniqId);
      expect(sms.body.data).toMatchObject({ status: 'sent', provider: 'log', provider_id: expect.any(String) });
      const byLot = await smsOut(tenant, lot);
      expect(byLot.body.data.uniq_id).toBe(uniqId);
    });

    it('keeps the code only as an HMAC: not in the OTP, the SMS or the outbox', async () => {
      const tenant = await createTenant(t);
      await t.withDeliveryPaused(async () => {
        const res = await send(tenant, smsBody(TO));
        const { code, uniq_id } = res.body.data;

        const [otp] = await rowsOf('otp', tenant);
        expect(otp.code_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(JSON.stringify(otp)).not.toContain(code);
        const [message] = await rowsOf('message_out', tenant);
        expect(message.uniq_id).toBe(uniq_id);
        expect(JSON.stringify(message)).not.toContain(code);
        const [outbox] = await rowsOf('outbox', tenant);
        expect(outbox.record_id).toBe(uniq_id);
        expect(outbox.payload).not.toContain(code);
        expect(outbox.payload).not.toContain(TO);
        expect(outbox.payload).not.toContain('Votre code');
      });
      await t.deliver();
    });

    it('sends from the local number of the destination country when asked', async () => {
      const tenant = await createTenant(t);
      await t.admin.addLocalNumber(tenant.accountId, '+2250101010101');
      const res = await send(tenant, smsBody(TO, { use_local_number: true }));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data.local_number).toBe('+2250101010101');
    });

    it('records no local number when the account has none for that country', async () => {
      const tenant = await createTenant(t);
      await t.admin.addLocalNumber(tenant.accountId, '+2250101010101');
      const res = await send(tenant, smsBody('+33612345678', { use_local_number: true }));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data).toMatchObject({ local_number: null, sender: { name: 'DEMO' } });
    });

    it('records no local number unless asked', async () => {
      const tenant = await createTenant(t);
      await t.admin.addLocalNumber(tenant.accountId, '+2250101010101');
      const res = await send(tenant, smsBody(TO));
      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.body.data.local_number).toBeNull();
    });
  });

  describe('e-mail', () => {
    it('sends an e-mail OTP without an SMS record', async () => {
      const tenant = await createTenant(t);
      const res = await send(tenant, emailBody('awa@example.com', { use_local_number: true, language: 'pt', application_name: 'MonApp' }));
      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: { uniq_id: expect.stringMatching(UUID_V7), code: expect.stringMatching(/^\d{6}$/), expires_at: expect.any(Number) },
      });

      const sms = await smsOut(tenant, res.body.data.uniq_id);
      expect(sms.status).toBe(404);
      expect(sms.body).toEqual({ status: 404, message: 'Non trouvé', errors: [expect.any(String)] });
      expect(await rowsOf('message_out', tenant)).toEqual([]);
    });

    it('keeps the delivery state of an e-mail OTP on the OTP', async () => {
      const tenant = await createTenant(t);
      await send(tenant, emailBody('awa@example.com'));
      await t.deliver();
      const [otp] = await rowsOf('otp', tenant);
      expect(otp).toMatchObject({ channel: 'EMAIL', delivery_status: 'sent', provider: 'log' });
    });
  });
});
