import { Webhook } from 'standardwebhooks';
import { createTenant, emailBody, type Tenant } from './support/fixtures.js';
import { ciNumber, fraudCalls } from './support/fraud.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const METRICS_TOKEN = 'metrics-token-for-the-fraud-guard-0001';
const PREMIUM_FR = '+33899123456';
const PREFIX = '+225070707';

const DEFAULT_POLICY = {
  modes: { lists: 'enforce', countries: 'enforce', number_types: 'enforce', velocity: 'monitor', conversion: 'monitor' },
  countries: {},
  number_types: { block: ['PREMIUM_RATE', 'SHARED_COST', 'TOLL_FREE', 'PAGER', 'VOICEMAIL', 'UAN'], monitor: ['FIXED_LINE', 'VOIP', 'PERSONAL_NUMBER'] },
  thresholds: { ip_per_hour: 10, user_per_hour: 10, prefix_per_hour: 20, country_per_10_min: 100, conversion_min_sends: 30, conversion_min_rate: 0.2 },
};

/** The `/v1/fraud` routes (tag Fraude): policy, lists, blocks, attempts; sandbox settings; the `otp.blocked` event; the metrics. */
describe('OTP fraud guard: routes, events and metrics', () => {
  let t: TestApp;
  let calls: ReturnType<typeof fraudCalls>;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ METRICS_TOKEN, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    calls = fraudCalls(t);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const as = (tenant: Tenant) => ({
    get: (path: string, query: Record<string, string> = {}) => t.http().get(path).query(query).set('Authorization', tenant.auth),
    put: (path: string, body: unknown) => t.http().put(path).set('Authorization', tenant.auth).send(body as object),
    post: (path: string, body: unknown) => t.http().post(path).set('Authorization', tenant.auth).send(body as object),
    delete: (path: string) => t.http().delete(path).set('Authorization', tenant.auth),
  });

  describe('GET|PUT /v1/fraud/policy', () => {
    it('answers the defaults of SPEC-3 §3 to an account that changed nothing', async () => {
      const tenant = await createTenant(t);
      expect((await as(tenant).get('/v1/fraud/policy').expect(200)).body).toEqual({ status: 200, message: 'succès', data: DEFAULT_POLICY });
    });

    it('keeps every key a PUT leaves out, and answers the whole policy', async () => {
      const tenant = await createTenant(t);
      await as(tenant).put('/v1/fraud/policy', { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 50 }, countries: { allow: ['CI', 'SN'] } }).expect(200);
      const res = await as(tenant).put('/v1/fraud/policy', { number_types: { monitor: ['VOIP'] } }).expect(200);

      const changed = {
        ...DEFAULT_POLICY,
        modes: { ...DEFAULT_POLICY.modes, velocity: 'enforce' },
        countries: { allow: ['CI', 'SN'] },
        number_types: { ...DEFAULT_POLICY.number_types, monitor: ['VOIP'] },
        thresholds: { ...DEFAULT_POLICY.thresholds, prefix_per_hour: 50 },
      };
      expect(res.body).toEqual({ status: 200, message: 'succès', data: changed });
      expect((await as(tenant).get('/v1/fraud/policy').expect(200)).body.data).toEqual(changed);
      expect((await as(tenant).put('/v1/fraud/policy', {}).expect(200)).body.data).toEqual(changed);
    });

    it.each([
      [{ modes: 'enforce' }, 'modes: doit être un objet {lists, countries, number_types, velocity, conversion}'],
      [{ modes: { velocity: 'block' } }, 'modes.velocity: doit valoir enforce, monitor ou off'],
      [{ thresholds: { ip_per_hour: 0 } }, 'thresholds.ip_per_hour: doit être compris entre 1 et 100000'],
      [{ thresholds: { ip_per_hour: 1.5 } }, 'thresholds.ip_per_hour: doit être un entier'],
      [{ thresholds: { conversion_min_rate: 1.5 } }, 'thresholds.conversion_min_rate: doit être compris entre 0 et 1'],
      [{ countries: { allow: ['CI'], deny: ['SN'] } }, 'countries: allow et deny sont exclusifs'],
      [{ countries: { allow: ['XX'] } }, 'countries.allow: doit être une liste de codes pays : doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'],
      [{ number_types: { block: ['PREMIUM'] } }, 'number_types.block: doit être une liste de types parmi FIXED_LINE, MOBILE, FIXED_LINE_OR_MOBILE, PREMIUM_RATE, TOLL_FREE, SHARED_COST, VOIP, PERSONAL_NUMBER, PAGER, UAN, VOICEMAIL'],
      [{ number_types: { block: ['FIXED_LINE'] } }, 'number_types: un type ne peut être à la fois dans block et monitor (FIXED_LINE)'],
    ])('refuses %j with 400 and changes nothing', async (body, error) => {
      const tenant = await createTenant(t);
      expect((await as(tenant).put('/v1/fraud/policy', body)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [error] });
      expect((await as(tenant).get('/v1/fraud/policy')).body.data).toEqual(DEFAULT_POLICY);
    });
  });

  describe('/v1/fraud/list', () => {
    it.each([
      ['block', 'phone', '00225 07 07 07 07 07', '+2250707070707'],
      ['block', 'prefix', '99899394', '+99899394'],
      ['block', 'country', 'UZ', 'UZ'],
      ['block', 'ip', '::ffff:10.0.0.1', '10.0.0.1'],
      ['block', 'ip', '10.1.2.3/8', '10.0.0.0/8'],
      ['block', 'ip', '2001:0db8::0001', '2001:db8::1'],
      ['allow', 'user_ref', 'client 42', 'client 42'],
    ])('puts a %s %s entry %j on the list as %j', async (list, kind, value, stored) => {
      const tenant = await createTenant(t);
      const res = await as(tenant).post('/v1/fraud/list', { list, kind, value, note: 'essai' }).expect(201);
      expect(res.body).toEqual({
        status: 201,
        message: 'succès',
        data: {
          id: expect.stringMatching(UUID),
          account_id: tenant.accountId,
          sandbox: false,
          list,
          kind,
          value: stored,
          note: 'essai',
          expires_at: null,
          created_by: tenant.userId,
          created_at: expect.any(String),
        },
      });
      expect((await as(tenant).get('/v1/fraud/list').expect(200)).body.data).toEqual({ items: [res.body.data], next_cursor: null, has_more: false });
    });

    it.each([
      [{ list: 'block', kind: 'phone', value: '12' }, 'value: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'],
      [{ list: 'block', kind: 'prefix', value: '+0abc' }, 'value: préfixe invalide (+ suivi de 1 à 14 chiffres)'],
      [{ list: 'block', kind: 'country', value: 'ZZ' }, 'value: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'],
      [{ list: 'block', kind: 'ip', value: '1.2.3' }, 'value: adresse IP ou plage CIDR invalide'],
      [{ list: 'block', kind: 'ip', value: '10.0.0.0/33' }, 'value: adresse IP ou plage CIDR invalide'],
      [{ list: 'block', kind: 'user_ref', value: 'a\u0007b' }, 'value: doit faire de 1 à 128 caractères imprimables'],
      [{ list: 'allow', kind: 'prefix', value: '+225' }, "kind: la liste allow n'accepte que phone ou user_ref"],
      [{ list: 'block', kind: 'phone', value: '+2250707070707', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at: doit être dans le futur'],
      [{ list: 'block', kind: 'phone', value: '+2250707070707', expires_at: '2030-01-01T00:00:00' }, 'expires_at: date ISO 8601 avec fuseau attendue'],
      [{ list: 'grey', kind: 'phone', value: '+2250707070707' }, 'list: doit valoir allow ou block'],
      [{ kind: 'phone', value: '+2250707070707' }, 'list: est obligatoire'],
    ])('refuses %j with 400', async (body, error) => {
      const tenant = await createTenant(t);
      expect((await as(tenant).post('/v1/fraud/list', body)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [error] });
      expect(await calls.count('fraud_list_entry', tenant)).toBe(0);
    });

    it('refuses the same entry twice with 409, and takes an entry off once', async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      const entry = await calls.listEntry(tenant, { list: 'block', kind: 'prefix', value: '+99899394' });
      expect((await as(tenant).post('/v1/fraud/list', { list: 'block', kind: 'prefix', value: '99899394' })).body).toEqual({
        status: 409,
        message: 'deja_existant',
        errors: ['value: +99899394 est déjà sur la liste block (prefix)'],
      });
      await calls.listEntry(tenant, { list: 'block', kind: 'phone', value: '+998993941234' });

      expect((await as(other).delete(`/v1/fraud/list/${entry.id}`)).body).toEqual({ status: 404, message: 'Entrée non trouvée' });
      expect((await as(tenant).delete(`/v1/fraud/list/${entry.id}`).expect(200)).body).toEqual({ status: 200, message: 'success' });
      expect((await as(tenant).delete(`/v1/fraud/list/${entry.id}`)).body).toEqual({ status: 404, message: 'Entrée non trouvée' });
      expect((await as(tenant).delete('/v1/fraud/list/pas-un-id')).status).toBe(404);
      expect((await as(tenant).get('/v1/fraud/list').expect(200)).body.data.items.map((item: { kind: string }) => item.kind)).toEqual(['phone']);
    });

    it('lists newest first, page by page, with the list and kind filters', async () => {
      const tenant = await createTenant(t);
      const made = [];
      for (let n = 1; n <= 5; n++) made.push(await calls.listEntry(tenant, { list: 'block', kind: 'phone', value: ciNumber(PREFIX, n) }));
      made.push(await calls.listEntry(tenant, { list: 'allow', kind: 'phone', value: ciNumber(PREFIX, 9) }));

      const first = (await as(tenant).get('/v1/fraud/list', { list: 'block', limit: '3' }).expect(200)).body.data;
      const second = (await as(tenant).get('/v1/fraud/list', { list: 'block', limit: '3', cursor: first.next_cursor }).expect(200)).body.data;

      expect([...first.items, ...second.items].map((item: { id: string }) => item.id)).toEqual(made.slice(0, 5).reverse().map((entry) => entry.id));
      expect(second).toMatchObject({ has_more: false, next_cursor: null });
      expect((await as(tenant).get('/v1/fraud/list', { list: 'allow', cursor: first.next_cursor })).body).toEqual({
        status: 400,
        message: 'erreur_de_validation',
        errors: ['cursor: curseur invalide'],
      });
      expect((await as(tenant).get('/v1/fraud/list', { kind: 'ip' }).expect(200)).body.data.items).toEqual([]);
    });
  });

  describe('/v1/fraud/blocks', () => {
    it('lists a prefix block, lifts it by route (the prefix is sent to again at once), and refuses to lift it twice', async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 1 } });
      await calls.send(tenant, ciNumber(PREFIX, 1)).expect(200);
      expect((await calls.send(tenant, ciNumber(PREFIX, 2))).status).toBe(403);
      const [block] = await calls.blocks(tenant, { active: 'true' });
      expect(block).toMatchObject({ scope: 'prefix', value: PREFIX, active: true });
      expect(await calls.blocks(tenant, { scope: 'country' })).toEqual([]);
      expect(await calls.blocks(other)).toEqual([]);
      expect((await as(other).delete(`/v1/fraud/blocks/${block!.id}`)).body).toEqual({ status: 404, message: 'Blocage non trouvé' });

      expect((await as(tenant).delete(`/v1/fraud/blocks/${block!.id}`).expect(200)).body).toEqual({ status: 200, message: 'success' });

      await calls.send(tenant, ciNumber(PREFIX, 2)).expect(200);
      expect((await as(tenant).delete(`/v1/fraud/blocks/${block!.id}`)).body).toEqual({
        status: 409,
        message: 'transition_invalide',
        errors: ['status: blocage déjà levé ou terminé'],
      });
      expect(await calls.blocks(tenant, { active: 'false' })).toEqual([{ ...block, lifted_at: expect.any(String), active: false }]);
      const next = await calls.send(tenant, ciNumber(PREFIX, 3));
      expect(next.body.data.reasons).toEqual(['prefix_velocity']);
      expect(Number(next.headers['retry-after'])).toBe(3600);
    });

    it('refuses a bad filter with 400', async () => {
      const tenant = await createTenant(t);
      expect((await as(tenant).get('/v1/fraud/blocks', { scope: 'ip' })).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['scope: doit valoir prefix ou country'] });
      expect((await as(tenant).get('/v1/fraud/blocks', { active: 'yes' })).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['active: doit valoir true ou false'] });
    });
  });

  describe('GET /v1/fraud/attempts', () => {
    it('filters by reason, mode, country and creation time, newest first, page by page', async () => {
      const tenant = await createTenant(t);
      const before = new Date(t.clock.now().getTime() - 1000).toISOString();
      await calls.listEntry(tenant, { list: 'block', kind: 'user_ref', value: 'u-bad' });
      const premium = await calls.send(tenant, PREMIUM_FR);
      const listed = await calls.send(tenant, '+221771234567', { user_ref: 'u-bad' });
      await calls.send(tenant, '+33140000000').expect(200);
      const both = await calls.send(tenant, '+448712345678', { user_ref: 'u-bad' });
      const ids = (items: Array<Record<string, unknown>>) => items.map((item) => item.id);

      expect(ids(await calls.attempts(tenant, { reason: 'in_block_list' }))).toEqual([both.body.data.attempt_id, listed.body.data.attempt_id]);
      expect(ids(await calls.attempts(tenant, { reason: 'number_type_premium_rate', mode: 'blocked' }))).toEqual([both.body.data.attempt_id, premium.body.data.attempt_id]);
      expect((await calls.attempts(tenant, { mode: 'monitored' })).map((item) => item.reasons)).toEqual([['number_type_fixed_line']]);
      expect(ids(await calls.attempts(tenant, { country: 'SN' }))).toEqual([listed.body.data.attempt_id]);
      expect(await calls.attempts(tenant, { created_to: before })).toEqual([]);
      expect(await calls.attempts(tenant, { created_from: before })).toHaveLength(4);
      expect((await calls.attempts(tenant, { reason: 'in_block_list', country: 'GB' })).map((item) => item.reasons)).toEqual([['in_block_list', 'number_type_premium_rate']]);

      const page = (await as(tenant).get('/v1/fraud/attempts', { reason: 'number_type_premium_rate', limit: '1' }).expect(200)).body.data;
      expect(page).toMatchObject({ has_more: true });
      const rest = (await as(tenant).get('/v1/fraud/attempts', { reason: 'number_type_premium_rate', limit: '1', cursor: page.next_cursor }).expect(200)).body.data;
      expect([...ids(page.items), ...ids(rest.items)]).toEqual([both.body.data.attempt_id, premium.body.data.attempt_id]);
    });

    it.each([
      [{ reason: 'spam' }, 'reason: raison inconnue (voir la liste des raisons)'],
      [{ mode: 'refused' }, 'mode: doit valoir blocked ou monitored'],
      [{ country: 'xx' }, 'country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'],
      [{ created_from: '2026-01-01' }, 'created_from: date ISO 8601 avec fuseau attendue'],
    ])('refuses %j with 400', async (query, error) => {
      const tenant = await createTenant(t);
      expect((await as(tenant).get('/v1/fraud/attempts', query)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [error] });
    });
  });

  it('gives sandbox keys lists, blocks, policy and attempts of their own', async () => {
    const live = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(live.userId, true);
    const sandbox: Tenant = { ...live, apiKey: api_key, auth: `Bearer ${api_key}` };
    await calls.listEntry(live, { list: 'block', kind: 'phone', value: '+2250707070701' });
    await calls.listEntry(sandbox, { list: 'block', kind: 'phone', value: '+2250707070702' });
    await calls.setPolicy(sandbox, { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 1 } });

    await calls.send(sandbox, '+2250707070701').expect(200);
    expect((await calls.send(sandbox, '+2250707070702')).body.data.reasons).toEqual(['in_block_list']);
    expect((await calls.send(live, '+2250707070701')).body.data.reasons).toEqual(['in_block_list']);
    await calls.send(live, '+2250707070702').expect(200);
    expect((await calls.send(sandbox, '+2250505050501')).status).toBe(200);
    expect((await calls.send(sandbox, '+2250505050502')).body.data.reasons).toEqual(['prefix_velocity']);
    await calls.send(live, '+2250505050503').expect(200);

    expect((await calls.blocks(sandbox)).map((block) => [block.value, block.sandbox])).toEqual([['+225050505', true]]);
    expect(await calls.blocks(live)).toEqual([]);
    expect((await as(live).get('/v1/fraud/policy')).body.data).toEqual(DEFAULT_POLICY);
    expect((await calls.attempts(sandbox)).map((attempt) => [attempt.to, attempt.sandbox])).toEqual([
      ['+2250505050502', true],
      ['+2250707070702', true],
    ]);
    expect((await calls.attempts(live)).map((attempt) => attempt.to)).toEqual(['+2250707070701']);
    expect((await as(live).get('/v1/fraud/list')).body.data.items.map((item: { value: string }) => item.value)).toEqual(['+2250707070701']);
  });

  it('POSTs a signed otp.blocked event with the attempt to a subscribed account webhook, none for a monitored send', async () => {
    const tenant = await createTenant(t);
    const subscribed = await as(tenant).put('/v1/account/webhook', { url: receiver.url('/fraude'), events: ['otp.blocked'] }).expect(200);
    const secret = subscribed.body.data.secret as string;
    await calls.send(tenant, '+33140000000').expect(200);
    const refused = await calls.send(tenant, PREMIUM_FR, { client_ip: '203.0.113.9', user_ref: 'u-9' });

    const [hook] = await until(() => receiver.at('/fraude'), (hooks) => hooks.length >= 1);
    const event = new Webhook(secret).verify(hook!.body, hook!.headers as Record<string, string>) as Record<string, unknown>;
    const [attempt] = await calls.attempts(tenant, { mode: 'blocked' });
    expect(event).toEqual({ id: expect.stringMatching(UUID), type: 'otp.blocked', created_at: attempt!.created_at, api_version: 'v1', data: attempt });
    expect(attempt).toMatchObject({ id: refused.body.data.attempt_id, client_ip: '203.0.113.9', user_ref: 'u-9' });
    expect(hook!.headers['webhook-event']).toBe('otp.blocked');
    await t.drain('webhook');
    expect(receiver.at('/fraude')).toHaveLength(1);
  });

  it('counts the OTPs sent, verified and blocked in GET /v1/metrics, with their conversion rate', async () => {
    const tenant = await createTenant(t);
    const from = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const first = await calls.send(tenant, '+2250707070701').expect(200);
    await calls.send(tenant, '+2250707070702').expect(200);
    await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(emailBody('awa@example.com')).expect(200);
    await calls.send(tenant, PREMIUM_FR).expect(403);
    await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to: '+2250707070701', code: first.body.data.code }).expect(200);
    const to = new Date(t.clock.now().getTime() + 60_000).toISOString();

    const metrics = async (query: Record<string, string> = {}) =>
      (await as(tenant).get('/v1/metrics', { created_from: from, created_to: to, granularity: 'none', ...query }).expect(200)).body.data.otp;

    expect(await metrics()).toEqual({ sent: 3, verified: 1, conversion_rate: 0.3333, blocked: 1 });
    expect(await metrics({ country: 'CI' })).toEqual({ sent: 2, verified: 1, conversion_rate: 0.5, blocked: 0 });
    expect(await metrics({ country: 'FR' })).toEqual({ sent: 0, verified: 0, conversion_rate: null, blocked: 1 });
  });

  it('publishes the guard on /metrics: attempts by reason and mode, blocks in force by scope, sends and verifications by country', async () => {
    const tenant = await createTenant(t);
    const scrape = async () => (await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
    const value = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const series = {
      blocked: 'otp_fraud_attempts_total{reason="number_type_premium_rate",mode="blocked"}',
      monitored: 'otp_fraud_attempts_total{reason="number_type_fixed_line",mode="monitored"}',
      refusedSends: 'otp_sends_total{channel="SMS",outcome="blocked",country="FR"}',
      sentCi: 'otp_sends_total{channel="SMS",outcome="accepted",country="CI"}',
      verifiedCi: 'otp_verified_total{country="CI"}',
      prefixBlocks: 'fraud_blocks_active{scope="prefix"}',
    };
    const read = (text: string) => Object.fromEntries(Object.entries(series).map(([name, line]) => [name, value(text, line)]));
    const before = read(await scrape());

    await calls.setPolicy(tenant, { modes: { velocity: 'enforce' }, thresholds: { prefix_per_hour: 1 } });
    await calls.send(tenant, PREMIUM_FR).expect(403);
    await calls.send(tenant, '+33140000000').expect(200);
    const sent = await calls.send(tenant, ciNumber('+225030303', 1)).expect(200);
    await calls.send(tenant, ciNumber('+225030303', 2)).expect(403);
    await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to: ciNumber('+225030303', 1), code: sent.body.data.code }).expect(200);

    const after = read(await scrape());
    expect(Object.fromEntries(Object.keys(series).map((name) => [name, after[name]! - before[name]!]))).toEqual({
      blocked: 1,
      monitored: 1,
      refusedSends: 1,
      sentCi: 1,
      verifiedCi: 1,
      prefixBlocks: 1,
    });
  });
});
