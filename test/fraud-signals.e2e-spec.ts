import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { ciNumber, fraudCalls } from './support/fraud.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PREMIUM_FR = '+33899123456';
const TOLL_FREE_US = '+18005551234';
const FIXED_LINE_FR = '+33140000000';
const SN = '+221771234567';
const PREFIX = '+225070707';
const HOUR = 3600;

/** Each signal of SPEC-3 §3, in enforce and in monitor mode, over HTTP on the real AppModule. */
describe('OTP fraud guard: signals', () => {
  let t: TestApp;
  let calls: ReturnType<typeof fraudCalls>;
  beforeAll(async () => {
    t = await startTestApp();
    calls = fraudCalls(t);
  });
  afterAll(() => t?.close());

  const blocked = (errors: string[], reasons: string[], blockedUntil: string | null = null) => ({
    status: 403,
    message: 'envoi_bloque',
    errors,
    data: { attempt_id: expect.stringMatching(UUID), reasons, blocked_until: blockedUntil === null ? null : expect.any(String) },
  });
  const retryAfter = (res: { headers: Record<string, string> }) => (res.headers['retry-after'] === undefined ? undefined : Number(res.headers['retry-after']));

  describe('number types (libphonenumber-js/max)', () => {
    it('refuses a premium-rate number by default: 403 envoi_bloque, nothing stored but the attempt, nothing debited', async () => {
      const tenant = await createTenant(t);
      const before = { stored: await calls.stored(tenant), balance: await calls.balance(tenant) };

      const res = await calls.send(tenant, PREMIUM_FR);

      expect(res.status).toBe(403);
      expect(res.body).toEqual(blocked(['to: numéro de type PREMIUM_RATE refusé'], ['number_type_premium_rate']));
      expect(retryAfter(res)).toBeUndefined();
      expect(await calls.stored(tenant)).toEqual({ ...before.stored, fraud_attempt: before.stored.fraud_attempt + 1 });
      expect(await calls.balance(tenant)).toBe(before.balance);
      const [attempt] = await calls.attempts(tenant);
      expect(attempt).toEqual({
        id: res.body.data.attempt_id,
        account_id: tenant.accountId,
        sandbox: false,
        mode: 'blocked',
        reasons: ['number_type_premium_rate'],
        channel: 'sms',
        to: PREMIUM_FR,
        country: 'FR',
        prefix: '+3389912',
        client_ip: null,
        user_ref: null,
        otp_id: null,
        blocked_until: null,
        created_at: expect.any(String),
      });
    });

    it.each([
      [TOLL_FREE_US, 'TOLL_FREE'],
      ['+448712345678', 'PREMIUM_RATE'],
    ])('refuses %s (%s) by default', async (to, type) => {
      const tenant = await createTenant(t);
      const res = await calls.send(tenant, to);
      expect(res.body).toEqual(blocked([`to: numéro de type ${type} refusé`], [`number_type_${type.toLowerCase()}`]));
    });

    it('sends to a fixed-line number and records it as monitored, with the OTP it let through', async () => {
      const tenant = await createTenant(t);
      const res = await calls.send(tenant, FIXED_LINE_FR).expect(200);

      const [attempt] = await calls.attempts(tenant);
      expect(attempt).toMatchObject({ mode: 'monitored', reasons: ['number_type_fixed_line'], otp_id: res.body.data.uniq_id, blocked_until: null });
    });

    it('lets a premium-rate number through in monitor mode and through unrecorded when off', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { number_types: 'monitor' } });
      const monitored = await calls.send(tenant, PREMIUM_FR).expect(200);
      expect(await calls.attempts(tenant)).toEqual([expect.objectContaining({ mode: 'monitored', reasons: ['number_type_premium_rate'], otp_id: monitored.body.data.uniq_id })]);

      await calls.setPolicy(tenant, { modes: { number_types: 'off' } });
      await calls.send(tenant, PREMIUM_FR).expect(200);
      expect(await calls.attempts(tenant)).toHaveLength(1);
    });

    it('refuses a type the account adds to its block list, and lets through a type it takes out', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { number_types: { block: ['FIXED_LINE'], monitor: [] } });
      expect((await calls.send(tenant, FIXED_LINE_FR)).body.data.reasons).toEqual(['number_type_fixed_line']);
      await calls.send(tenant, PREMIUM_FR).expect(200);
    });
  });

  describe('deny list', () => {
    it.each([
      ['phone', '+2250707070707', {}, 'to: numéro sur la liste de blocage'],
      ['prefix', '+22507070', {}, 'to: préfixe +22507070 sur la liste de blocage'],
      ['country', 'CI', {}, 'to: pays CI sur la liste de blocage'],
      ['ip', '203.0.113.7', { client_ip: '203.0.113.7' }, 'client_ip: adresse 203.0.113.7 sur la liste de blocage'],
      ['ip', '203.0.113.0/24', { client_ip: '203.0.113.99' }, 'client_ip: adresse 203.0.113.0/24 sur la liste de blocage'],
      ['ip', '2001:db8::/32', { client_ip: '2001:db8:0:0:0:0:0:5' }, 'client_ip: adresse 2001:db8::/32 sur la liste de blocage'],
      ['user_ref', 'fraudeur-42', { user_ref: 'fraudeur-42' }, 'user_ref: utilisateur sur la liste de blocage'],
    ])('refuses a send matching a %s entry (%s)', async (kind, value, extra, error) => {
      const tenant = await createTenant(t);
      await calls.listEntry(tenant, { list: 'block', kind, value });

      const res = await calls.send(tenant, '+2250707070707', extra);

      expect(res.body).toEqual(blocked([error], ['in_block_list']));
      await calls.send(tenant, '+221771234567').expect(200);
    });

    it('records a listed send and lets it through in monitor mode', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { lists: 'monitor' } });
      await calls.listEntry(tenant, { list: 'block', kind: 'phone', value: '+2250707070707' });

      const res = await calls.send(tenant, '+2250707070707').expect(200);

      expect(await calls.attempts(tenant)).toEqual([expect.objectContaining({ mode: 'monitored', reasons: ['in_block_list'], otp_id: res.body.data.uniq_id })]);
    });

    it('refuses until an entry expires, with blocked_until and Retry-After, then lets the send through', async () => {
      const tenant = await createTenant(t);
      const expiresAt = new Date(t.clock.now().getTime() + HOUR * 1000).toISOString();
      await calls.listEntry(tenant, { list: 'block', kind: 'prefix', value: PREFIX, expires_at: expiresAt });

      const res = await calls.send(tenant, '+2250707070707');
      expect(res.body).toEqual(blocked([`to: préfixe ${PREFIX} sur la liste de blocage`], ['in_block_list'], expiresAt));
      expect(res.body.data.blocked_until).toBe(expiresAt);
      expect(retryAfter(res)).toBeGreaterThan(HOUR - 5);
      expect(retryAfter(res)).toBeLessThanOrEqual(HOUR);

      t.clock.advance(HOUR + 1);
      await calls.send(tenant, '+2250707070707').expect(200);
      expect((await t.http().get('/v1/fraud/list').set('Authorization', tenant.auth).expect(200)).body.data.items).toEqual([]);
    });

    it('refuses an e-mail OTP by its address or user ref, never by a phone signal', async () => {
      const tenant = await createTenant(t);
      await calls.listEntry(tenant, { list: 'block', kind: 'user_ref', value: 'u-1' });
      const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(emailBody('awa@example.com', { user_ref: 'u-1' }));
      expect(res.body).toEqual(blocked(['user_ref: utilisateur sur la liste de blocage'], ['in_block_list']));
      await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(emailBody('awa@example.com', { user_ref: 'u-2' })).expect(200);
    });
  });

  describe('country policy', () => {
    it('lets through only the allowed countries, then every country but the denied ones, then every country', async () => {
      const tenant = await createTenant(t);
      expect(await calls.setPolicy(tenant, { countries: { allow: ['CI'] } })).toMatchObject({ countries: { allow: ['CI'] } });
      expect((await calls.send(tenant, SN)).body).toEqual(blocked(['to: pays SN non autorisé'], ['country_not_allowed']));
      await calls.send(tenant, '+2250707070707').expect(200);

      await calls.setPolicy(tenant, { countries: { deny: ['CI'] } });
      await calls.send(tenant, SN).expect(200);
      expect((await calls.send(tenant, '+2250707070708')).body.data.reasons).toEqual(['country_not_allowed']);

      expect(await calls.setPolicy(tenant, { countries: {} })).toMatchObject({ countries: {} });
      await calls.send(tenant, '+2250707070708').expect(200);
    });

    it('records a send to a country outside the policy in monitor mode', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { countries: 'monitor' }, countries: { allow: ['CI'] } });
      await calls.send(tenant, SN).expect(200);
      expect(await calls.attempts(tenant)).toEqual([expect.objectContaining({ mode: 'monitored', reasons: ['country_not_allowed'], country: 'SN' })]);
    });

    it('gives one sentence per reason, in the order the signals are read', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { countries: { deny: ['FR'] } });
      await calls.listEntry(tenant, { list: 'block', kind: 'phone', value: PREMIUM_FR });

      const res = await calls.send(tenant, PREMIUM_FR);

      expect(res.body).toEqual(
        blocked(
          ['to: numéro sur la liste de blocage', 'to: pays FR non autorisé', 'to: numéro de type PREMIUM_RATE refusé'],
          ['in_block_list', 'country_not_allowed', 'number_type_premium_rate'],
        ),
      );
    });
  });

  describe('velocity', () => {
    it.each([
      ['client_ip', 'ip_per_hour', 'ip_velocity', "client_ip: trop d'envois depuis cette adresse (3 par heure)", '198.51.100.4', '198.51.100.5'],
      ['user_ref', 'user_per_hour', 'user_velocity', "user_ref: trop d'envois pour cet utilisateur (3 par heure)", 'u-77', 'u-78'],
    ])('refuses the fourth send of the hour for one %s, until the first leaves the window', async (field, threshold, reason, error, value, other) => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { [threshold]: 3 } });
      for (let n = 0; n < 3; n++) {
        await calls.send(tenant, ciNumber(`+22507${n}${n}${n}${n}`, n), { [field]: value }).expect(200);
        t.clock.advance(60);
      }

      const res = await calls.send(tenant, ciNumber('+225079999', 9), { [field]: value });

      expect(res.body).toEqual(blocked([error], [reason], 'any'));
      expect(retryAfter(res)).toBeGreaterThan(HOUR - 180 - 5);
      expect(retryAfter(res)).toBeLessThanOrEqual(HOUR - 180);
      await calls.send(tenant, ciNumber('+225079999', 9)).expect(200);
      await calls.send(tenant, ciNumber('+225079999', 8), { [field]: other }).expect(200);
      t.clock.advance(HOUR - 180 + 1);
      await calls.send(tenant, ciNumber('+225079999', 7), { [field]: value }).expect(200);
    });

    it('refuses an address over its threshold since monitor mode until enough of its sends have left the window', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { thresholds: { ip_per_hour: 2 } });
      for (let n = 0; n < 4; n++) {
        await calls.send(tenant, ciNumber(`+22505${n}${n}${n}${n}`, n), { client_ip: '198.51.100.6' }).expect(200);
        t.clock.advance(60);
      }
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' } });

      const res = await calls.send(tenant, ciNumber('+225059999', 2), { client_ip: '198.51.100.6' });

      // four sends at 0, 1, 2 and 3 minutes ago: under the threshold of 2 once the second newest has left
      expect(res.body.data.reasons).toEqual(['ip_velocity']);
      expect(retryAfter(res)).toBeGreaterThan(HOUR - 120 - 5);
      expect(retryAfter(res)).toBeLessThanOrEqual(HOUR - 120);
      t.clock.advance(HOUR - 120 + 1);
      await calls.send(tenant, ciNumber('+225059999', 2), { client_ip: '198.51.100.6' }).expect(200);
    });

    it('records the fourth send of the hour from one address in monitor mode, and sends it', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { thresholds: { ip_per_hour: 3 } });
      for (let n = 0; n < 3; n++) await calls.send(tenant, ciNumber(`+22505${n}${n}${n}${n}`, n), { client_ip: '198.51.100.4' }).expect(200);

      const res = await calls.send(tenant, ciNumber('+225059999', 1), { client_ip: '198.51.100.4' }).expect(200);

      expect(await calls.attempts(tenant)).toEqual([expect.objectContaining({ mode: 'monitored', reasons: ['ip_velocity'], otp_id: res.body.data.uniq_id, client_ip: '198.51.100.4' })]);
    });

    it('writes at most ten monitored attempts a minute for one key', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { thresholds: { ip_per_hour: 1 } });
      for (let n = 0; n < 15; n++) await calls.send(tenant, ciNumber(`+22507${1000 + n}`, n), { client_ip: '198.51.100.8' }).expect(200);

      expect(await calls.attempts(tenant, { reason: 'ip_velocity' })).toHaveLength(10);
      t.clock.advance(61);
      await calls.send(tenant, ciNumber('+225079898', 1), { client_ip: '198.51.100.8' }).expect(200);
      expect(await calls.attempts(tenant, { reason: 'ip_velocity' })).toHaveLength(11);
    });

    it('never refuses for an address or a user ref it was not given', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { ip_per_hour: 1, user_per_hour: 1 } });
      for (let n = 0; n < 3; n++) await calls.send(tenant, ciNumber(`+22501${n}${n}${n}${n}`, n)).expect(200);
    });

    it('blocks a prefix an hour when a fourth distinct number of it is asked for, and keeps sending to other prefixes', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 3 } });
      for (let n = 1; n <= 3; n++) await calls.send(tenant, ciNumber(PREFIX, n)).expect(200);
      await calls.send(tenant, ciNumber(PREFIX, 1)).expect(200);

      const res = await calls.send(tenant, ciNumber(PREFIX, 4));

      expect(res.body).toEqual(blocked([`to: préfixe ${PREFIX} bloqué temporairement (trop d'envois)`], ['prefix_velocity'], 'any'));
      expect(retryAfter(res)).toBe(HOUR);
      expect(await calls.blocks(tenant)).toEqual([
        {
          id: expect.stringMatching(UUID),
          account_id: tenant.accountId,
          sandbox: false,
          scope: 'prefix',
          value: PREFIX,
          reason: 'prefix_velocity',
          mode: 'enforce',
          strikes: 1,
          blocked_until: res.body.data.blocked_until,
          lifted_at: null,
          active: true,
          created_at: expect.any(String),
        },
      ]);
      expect((await calls.send(tenant, ciNumber(PREFIX, 1))).body.data.reasons).toEqual(['prefix_velocity']);
      await calls.send(tenant, ciNumber('+225050505', 1)).expect(200);
    });

    it('records the prefix concentration in monitor mode with a monitor block, and sends', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { thresholds: { prefix_per_hour: 3 } });
      for (let n = 1; n <= 4; n++) await calls.send(tenant, ciNumber(PREFIX, n)).expect(200);
      await calls.send(tenant, ciNumber(PREFIX, 1)).expect(200);

      expect((await calls.attempts(tenant)).map((attempt) => [attempt.mode, attempt.reasons, attempt.blocked_until])).toEqual([
        ['monitored', ['prefix_velocity'], null],
        ['monitored', ['prefix_velocity'], null],
      ]);
      expect(await calls.blocks(tenant)).toEqual([expect.objectContaining({ scope: 'prefix', value: PREFIX, mode: 'monitor', active: true })]);
    });

    it('refuses a burst to one country past its threshold for ten minutes (counted by whole minutes)', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { country_per_10_min: 3 } });
      for (let n = 0; n < 3; n++) await calls.send(tenant, ciNumber(`+22507${n}${n}${n}${n}`, n)).expect(200);

      const res = await calls.send(tenant, ciNumber('+225079999', 1));

      expect(res.body).toEqual(blocked(["to: trop d'envois vers le pays CI (3 en 10 minutes)"], ['country_burst'], 'any'));
      expect(retryAfter(res)).toBeGreaterThan(595);
      expect(retryAfter(res)).toBeLessThanOrEqual(660);
      await calls.send(tenant, SN).expect(200);
      // Retry-After is rounded up to a second: 2 s short of it leaves at least a second to the window's end
      t.clock.advance(retryAfter(res)! - 2);
      expect((await calls.send(tenant, ciNumber('+225079999', 1))).status).toBe(403);
      t.clock.advance(3);
      await calls.send(tenant, ciNumber('+225079999', 1)).expect(200);
    });
  });

  describe('safe list', () => {
    it('lets a listed number through every signal, not through the per-recipient limit', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { countries: { allow: ['CI'] } });
      await calls.listEntry(tenant, { list: 'block', kind: 'country', value: 'FR' });
      await calls.listEntry(tenant, { list: 'allow', kind: 'phone', value: PREMIUM_FR });

      for (let n = 0; n < 5; n++) await calls.send(tenant, PREMIUM_FR).expect(200);
      expect(await calls.attempts(tenant)).toEqual([]);
      expect((await calls.send(tenant, PREMIUM_FR)).status).toBe(429);
    });

    it('lets a listed user ref through the velocity it would exceed', async () => {
      const tenant = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { ip_per_hour: 1 } });
      await calls.listEntry(tenant, { list: 'allow', kind: 'user_ref', value: 'vip' });
      for (let n = 0; n < 3; n++) await calls.send(tenant, ciNumber(`+22507${n}${n}${n}${n}`, n), { client_ip: '192.0.2.1', user_ref: 'vip' }).expect(200);
      expect((await calls.send(tenant, ciNumber('+225079999', 1), { client_ip: '192.0.2.1', user_ref: 'other' })).body.data.reasons).toEqual(['ip_velocity']);
    });
  });

  describe('refusal order 400 → 403 → 429 → 402', () => {
    it('answers 400 before 403', async () => {
      const tenant = await createTenant(t);
      const res = await calls.send(tenant, PREMIUM_FR, { sender: 'INCONNU' });
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['sender: expéditeur inconnu'] });
      expect(await calls.count('fraud_attempt', tenant)).toBe(0);
    });

    it('answers 403 before 429', async () => {
      const tenant = await createTenant(t);
      for (let n = 0; n < 5; n++) await calls.send(tenant, '+2250707070707').expect(200);
      expect((await calls.send(tenant, '+2250707070707')).status).toBe(429);
      await calls.listEntry(tenant, { list: 'block', kind: 'phone', value: '+2250707070707' });
      expect((await calls.send(tenant, '+2250707070707')).status).toBe(403);
    });

    it('answers 403 before 402', async () => {
      const tenant = await createTenant(t, { balance: '0.00' });
      expect((await calls.send(tenant, PREMIUM_FR)).status).toBe(403);
      expect((await calls.send(tenant, '+2250707070707')).body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 2.5, balance: 0 } });
    });
  });

  it('does not keep a 403 for an Idempotency-Key: the same request goes through once the number is no longer listed', async () => {
    const tenant = await createTenant(t);
    const entry = await calls.listEntry(tenant, { list: 'block', kind: 'phone', value: '+2250707070707' });
    const headers = { 'Idempotency-Key': 'otp-essai-1' };
    expect((await calls.send(tenant, '+2250707070707', {}, headers)).status).toBe(403);

    await t.http().delete(`/v1/fraud/list/${entry.id}`).set('Authorization', tenant.auth).expect(200);
    const sent = await calls.send(tenant, '+2250707070707', {}, headers).expect(200);

    expect((await calls.send(tenant, '+2250707070707', {}, headers).expect(200)).body).toEqual(sent.body);
  });

  it('stores the end user address (canonical), user ref, country and prefix on the OTP', async () => {
    const tenant = await createTenant(t);
    const res = await calls.send(tenant, '+2250707070707', { client_ip: '::ffff:192.0.2.9', user_ref: 'client 42' }).expect(200);
    const row = await t.database.run((sql) =>
      sql.get<Record<string, unknown>>('SELECT client_ip, user_ref, country, prefix FROM otp WHERE uniq_id = ?', [res.body.data.uniq_id]),
    );
    expect(row).toEqual({ client_ip: '192.0.2.9', user_ref: 'client 42', country: 'CI', prefix: PREFIX });
  });

  it.each([
    [{ client_ip: '1.2.3' }, 'client_ip: adresse IP invalide (IPv4 ou IPv6)'],
    [{ client_ip: 7 }, 'client_ip: doit être une chaîne de caractères'],
    [{ user_ref: 'x'.repeat(129) }, 'user_ref: doit faire de 1 à 128 caractères imprimables'],
    [{ user_ref: 'a\nb' }, 'user_ref: doit faire de 1 à 128 caractères imprimables'],
  ])('refuses %j with 400', async (extra, error) => {
    const tenant = await createTenant(t);
    const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070707', extra));
    expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [error] });
  });
});
