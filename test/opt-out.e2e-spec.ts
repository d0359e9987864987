import { Webhook } from 'standardwebhooks';
import { newId } from '../src/common/ids.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NOT_LISTED = { status: 404, message: 'Non trouvé', errors: ["phone: ce numéro n'est pas sur la liste des désinscrits"] };
const RECIPIENT_ONLY = { status: 409, message: 'transition_invalide', errors: ['phone: seul le destinataire peut se réabonner (START)'] };
const SUCCESS = { status: 200, message: 'success' };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });

/** `+22507070` followed by `n` on 5 digits: a valid Ivorian mobile number. */
const ci = (n: number) => `+22507070${String(n).padStart(5, '0')}`;

describe('/v1/opt-out', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const add = (tenant: Tenant, body: unknown) => t.http().post('/v1/opt-out').set('Authorization', tenant.auth).send(body as object);
  const list = (tenant: Tenant, query: Record<string, string> = {}) => t.http().get('/v1/opt-out').query(query).set('Authorization', tenant.auth);
  const remove = (tenant: Tenant, phone: string) => t.http().delete(`/v1/opt-out/${phone}`).set('Authorization', tenant.auth);
  const listedPhones = async (tenant: Tenant, query: Record<string, string> = {}) =>
    ((await list(tenant, { limit: '100', ...query }).expect(200)).body.data.items as Array<{ phone: string }>).map((item) => item.phone);

  async function sandboxKeyOf(tenant: Tenant): Promise<Tenant> {
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    return { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };
  }

  /** An entry only the recipient could make (STOP by SMS, the unsubscribe link), written as those features write it. */
  async function insertEntry(tenant: Tenant, phone: string, source: string, options: { keyword?: string; sandbox?: boolean } = {}) {
    await t.database.run((sql) =>
      sql.run('INSERT INTO opt_out (id, account_id, sandbox, phone, source, keyword, sender_id, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        newId(t.clock.now()),
        tenant.accountId,
        options.sandbox ?? false,
        phone,
        source,
        options.keyword ?? null,
        source === 'sms_keyword' ? tenant.senderId : null,
        null,
        t.clock.now(),
      ]),
    );
  }

  const rowsOf = (tenant: Tenant) =>
    t.database.run((sql) => sql.all<{ phone: string; sandbox: number | boolean }>('SELECT phone, sandbox FROM opt_out WHERE account_id = ? ORDER BY phone', [tenant.accountId]));

  describe('POST', () => {
    it('answers 200 with the numbers added and those already listed, and lists them with source api and the caller as author', async () => {
      const tenant = await createTenant(t);

      const first = await add(tenant, { phones: [ci(1), ci(2)] });
      const second = await add(tenant, { phones: [ci(2), ci(3), ci(3), '+221771234567'] });

      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: 200, message: 'succès', data: { added: 2, already: 0 } });
      expect(second.body).toEqual({ status: 200, message: 'succès', data: { added: 2, already: 1 } });
      const items = (await list(tenant).expect(200)).body.data.items;
      expect(items).toHaveLength(4);
      expect(items.map((item: { phone: string }) => item.phone).sort()).toEqual([ci(1), ci(2), ci(3), '+221771234567'].sort());
      for (const item of items) {
        expect(item).toEqual({ id: expect.any(String), phone: item.phone, source: 'api', keyword: null, sender_id: null, created_by: tenant.userId, created_at: expect.stringMatching(TIME) });
      }
    });

    it('reads numbers like contacts: separators, 00 and no +, and national numbers with default_country', async () => {
      const tenant = await createTenant(t);

      const res = await add(tenant, { phones: ['+225 07 07 0 00011', '0022507070 00012', '22507070-00013', '07 07 00 00 14'], default_country: 'CI' });

      expect(res.body.data).toEqual({ added: 4, already: 0 });
      expect((await listedPhones(tenant)).sort()).toEqual([ci(11), ci(12), ci(13), ci(14)]);
    });

    it.each([
      ['no phones', {}, ['phones: est obligatoire']],
      ['an empty list', { phones: [] }, ['phones: doit être une liste de 1 à 1000 chaînes de caractères']],
      ['a text instead of a list', { phones: '+2250707000001' }, ['phones: doit être une liste de 1 à 1000 chaînes de caractères']],
      ['a number that is not text', { phones: ['+2250707000001', 2250707000002] }, ['phones: doit être une liste de 1 à 1000 chaînes de caractères']],
      ['1,001 numbers', { phones: Array.from({ length: 1001 }, (_, i) => ci(i)) }, ['phones: doit être une liste de 1 à 1000 chaînes de caractères']],
      ['an unknown default_country', { phones: ['0707000001'], default_country: 'XX' }, ['default_country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)']],
      ['a national number without default_country', { phones: ['0707000001'] }, ['phones[0]: numéro de téléphone invalide']],
      [
        'invalid numbers among valid ones, each by its index',
        { phones: [ci(21), 'abc', ci(22), '+225123', '', '+22507070000015'] },
        ['phones[1]: numéro de téléphone invalide', 'phones[3]: numéro de téléphone invalide', 'phones[4]: numéro de téléphone invalide', 'phones[5]: numéro de téléphone invalide'],
      ],
    ])('answers 400 to %s, and lists nothing', async (_, body, errors) => {
      const tenant = await createTenant(t);

      const res = await add(tenant, body);

      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(...errors));
      expect(await rowsOf(tenant)).toEqual([]);
    });

    it('takes a body up to BULK_BODY_LIMIT_BYTES (1 MiB), over the 100 KiB of other routes, and answers 413 above it', async () => {
      const tenant = await createTenant(t);
      const padded = (pad: number) => Array.from({ length: 1000 }, (_, i) => `${' '.repeat(pad)}${ci(1000 + i)}`);
      const large = { phones: padded(200) };
      expect(Buffer.byteLength(JSON.stringify(large))).toBeGreaterThan(200 * 1024);

      const accepted = await add(tenant, large);
      const refused = await add(tenant, { phones: padded(1100) });

      expect(accepted.body).toEqual({ status: 200, message: 'succès', data: { added: 1000, already: 0 } });
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ status: 413, message: 'requete_trop_volumineuse' });
      expect(await rowsOf(tenant)).toHaveLength(1000);
    });

    it('lists each number once under 20 concurrent requests of overlapping numbers, and counts each as added once', async () => {
      const tenant = await createTenant(t);
      const pool = Array.from({ length: 40 }, (_, i) => ci(2000 + i));
      // request i takes 15 numbers from position 2i, wrapping around: every number is in several requests
      const bodies = Array.from({ length: 20 }, (_, i) => ({ phones: Array.from({ length: 15 }, (_, j) => pool[(2 * i + j) % pool.length]!) }));

      const answers = await Promise.all(bodies.map((body) => add(tenant, body)));

      expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 200));
      expect(answers.reduce((sum, res) => sum + (res.body.data.added as number), 0)).toBe(pool.length);
      answers.forEach((res) => expect(res.body.data.added + res.body.data.already).toBe(15));
      expect((await rowsOf(tenant)).map((row) => row.phone)).toEqual([...pool].sort());
    });
  });

  describe('GET', () => {
    it('pages newest first with limit and cursor', async () => {
      const tenant = await createTenant(t);
      for (const n of [31, 32, 33, 34, 35]) await add(tenant, { phones: [ci(n)] }).expect(200);

      const first = await list(tenant, { limit: '2' });
      const second = await list(tenant, { limit: '2', cursor: first.body.data.next_cursor });
      const last = await list(tenant, { limit: '2', cursor: second.body.data.next_cursor });

      expect(first.body).toEqual({ status: 200, message: 'succès', data: { items: [expect.objectContaining({ phone: ci(35) }), expect.objectContaining({ phone: ci(34) })], next_cursor: expect.any(String), has_more: true } });
      expect(second.body.data.items.map((item: { phone: string }) => item.phone)).toEqual([ci(33), ci(32)]);
      expect(last.body.data).toEqual({ items: [expect.objectContaining({ phone: ci(31) })], next_cursor: null, has_more: false });
    });

    it('filters by source', async () => {
      const tenant = await createTenant(t);
      await add(tenant, { phones: [ci(41)] }).expect(200);
      await insertEntry(tenant, ci(42), 'sms_keyword', { keyword: 'STOP' });
      await insertEntry(tenant, ci(43), 'link');

      const keyword = await list(tenant, { source: 'sms_keyword' });

      expect(keyword.body.data).toEqual({
        items: [{ id: expect.any(String), phone: ci(42), source: 'sms_keyword', keyword: 'STOP', sender_id: tenant.senderId, created_by: null, created_at: expect.stringMatching(TIME) }],
        next_cursor: null,
        has_more: false,
      });
      expect(await listedPhones(tenant, { source: 'api' })).toEqual([ci(41)]);
      expect(await listedPhones(tenant, { source: 'link' })).toEqual([ci(43)]);
      expect(await listedPhones(tenant, { source: 'admin' })).toEqual([]);
    });

    it.each([
      [{ source: 'stop' }, 'source: doit valoir sms_keyword, api, import, link ou admin'],
      [{ limit: '0' }, 'limit: doit être un entier compris entre 1 et 100'],
      [{ created_from: '2026-11-01T00:00:00' }, 'created_from: date ISO 8601 avec fuseau attendue'],
      [{ cursor: 'not-a-cursor' }, 'cursor: curseur invalide'],
    ])('answers 400 to %j', async (query, error) => {
      const tenant = await createTenant(t);

      const res = await list(tenant, query);

      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(error));
    });

    it('refuses a cursor made under other filters', async () => {
      const tenant = await createTenant(t);
      await add(tenant, { phones: [ci(51), ci(52)] }).expect(200);
      const { next_cursor } = (await list(tenant, { limit: '1' }).expect(200)).body.data;

      const res = await list(tenant, { limit: '1', source: 'api', cursor: next_cursor });

      expect(res.body).toEqual(invalid('cursor: curseur invalide'));
    });
  });

  describe('DELETE', () => {
    it('re-subscribes an api entry given with %2B, or without +, and answers 200 success', async () => {
      const tenant = await createTenant(t);
      await add(tenant, { phones: [ci(61), ci(62)] }).expect(200);

      const encoded = await remove(tenant, encodeURIComponent(ci(61)));
      const bare = await remove(tenant, ci(62).slice(1));

      expect(encoded.status).toBe(200);
      expect(encoded.body).toEqual(SUCCESS);
      expect(bare.body).toEqual(SUCCESS);
      expect(await listedPhones(tenant)).toEqual([]);
      expect((await add(tenant, { phones: [ci(61)] })).body.data).toEqual({ added: 1, already: 0 });
    });

    it.each(['import', 'admin'])('re-subscribes an %s entry', async (source) => {
      const tenant = await createTenant(t);
      await insertEntry(tenant, ci(63), source);

      expect((await remove(tenant, encodeURIComponent(ci(63)))).body).toEqual(SUCCESS);
      expect(await rowsOf(tenant)).toEqual([]);
    });

    it.each([
      ['sms_keyword', 'STOP'],
      ['link', undefined],
    ])('answers 409 transition_invalide for a %s entry, which stays', async (source, keyword) => {
      const tenant = await createTenant(t);
      await insertEntry(tenant, ci(64), source, { keyword });

      const res = await remove(tenant, encodeURIComponent(ci(64)));

      expect(res.status).toBe(409);
      expect(res.body).toEqual(RECIPIENT_ONLY);
      expect(await listedPhones(tenant)).toEqual([ci(64)]);
    });

    it.each([
      ['a number not on the list', encodeURIComponent(ci(65))],
      ['a malformed number', 'abc'],
      ['a number too short', '%2B225123'],
    ])('answers 404 Non trouvé with one error for %s', async (_, phone) => {
      const tenant = await createTenant(t);

      const res = await remove(tenant, phone);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_LISTED);
    });

    it('answers 404 to a second DELETE', async () => {
      const tenant = await createTenant(t);
      await add(tenant, { phones: [ci(66)] }).expect(200);
      await remove(tenant, encodeURIComponent(ci(66))).expect(200);

      expect((await remove(tenant, encodeURIComponent(ci(66)))).body).toEqual(NOT_LISTED);
    });
  });

  describe('tenants', () => {
    it("neither lists nor removes another account's entries; each account has its own list", async () => {
      const owner = await createTenant(t);
      const stranger = await createTenant(t);
      await add(owner, { phones: [ci(71)] }).expect(200);

      expect(await listedPhones(stranger)).toEqual([]);
      expect((await remove(stranger, encodeURIComponent(ci(71)))).body).toEqual(NOT_LISTED);
      expect(await listedPhones(owner)).toEqual([ci(71)]);
      expect((await add(stranger, { phones: [ci(71)] })).body.data).toEqual({ added: 1, already: 0 });
      await remove(stranger, encodeURIComponent(ci(71))).expect(200);
      expect(await listedPhones(owner)).toEqual([ci(71)]);
    });
  });

  describe('sandbox', () => {
    it('gives test keys a list of their own, which live keys neither see nor change, and the other way round', async () => {
      const live = await createTenant(t);
      const sandbox = await sandboxKeyOf(live);

      expect((await add(sandbox, { phones: [ci(81), ci(82)] })).body.data).toEqual({ added: 2, already: 0 });
      expect((await add(live, { phones: [ci(82), ci(83)] })).body.data).toEqual({ added: 2, already: 0 });

      expect((await listedPhones(sandbox)).sort()).toEqual([ci(81), ci(82)]);
      expect((await listedPhones(live)).sort()).toEqual([ci(82), ci(83)]);
      expect((await remove(live, encodeURIComponent(ci(81)))).body).toEqual(NOT_LISTED);
      expect((await remove(sandbox, encodeURIComponent(ci(83)))).body).toEqual(NOT_LISTED);
      expect((await remove(sandbox, encodeURIComponent(ci(82)))).body).toEqual(SUCCESS);
      expect((await listedPhones(live)).sort()).toEqual([ci(82), ci(83)]);
      expect((await rowsOf(live)).map((row) => [row.phone, Number(row.sandbox)])).toEqual([
        [ci(81), 1],
        [ci(82), 0],
        [ci(83), 0],
      ]);
    });
  });

  describe('contacts', () => {
    it("derives a contact's opted_out from the list of the calling key's mode", async () => {
      const live = await createTenant(t);
      const sandbox = await sandboxKeyOf(live);
      const contactOf = async (tenant: Tenant, id: string) => (await t.http().get(`/v1/contact/${id}`).set('Authorization', tenant.auth).expect(200)).body.data;
      const optedOut = async (tenant: Tenant, value: 'true' | 'false') =>
        ((await t.http().get('/v1/contact').query({ opted_out: value }).set('Authorization', tenant.auth).expect(200)).body.data.items as Array<{ id: string }>).map(
          (contact) => contact.id,
        );
      const created = await t.http().post('/v1/contact').set('Authorization', live.auth).send({ phone: ci(91) }).expect(201);
      const other = await t.http().post('/v1/contact').set('Authorization', live.auth).send({ phone: ci(92) }).expect(201);
      const id = created.body.data.id as string;
      expect(created.body.data.opted_out).toBe(false);

      await add(live, { phones: [ci(91)] }).expect(200);

      expect(await contactOf(live, id)).toMatchObject({ id, phone: ci(91), opted_out: true });
      expect(await optedOut(live, 'true')).toEqual([id]);
      expect(await optedOut(live, 'false')).toEqual([other.body.data.id]);
      expect(await contactOf(sandbox, id)).toMatchObject({ id, opted_out: false });
      expect(await optedOut(sandbox, 'true')).toEqual([]);

      await remove(live, encodeURIComponent(ci(91))).expect(200);

      expect(await contactOf(live, id)).toMatchObject({ id, opted_out: false });
      expect(await optedOut(live, 'true')).toEqual([]);
    });

    it('keeps the entry when its contact is deleted', async () => {
      const tenant = await createTenant(t);
      const created = await t.http().post('/v1/contact').set('Authorization', tenant.auth).send({ phone: ci(93) }).expect(201);
      await add(tenant, { phones: [ci(93)] }).expect(200);

      await t.http().delete(`/v1/contact/${created.body.data.id}`).set('Authorization', tenant.auth).expect(200);

      expect(await listedPhones(tenant)).toEqual([ci(93)]);
    });
  });

  describe('events', () => {
    const EVENTS = ['contact.opted_out', 'contact.opted_in'];
    const bodiesAt = async (path: string, count: number) =>
      (await until(() => receiver.at(path), (hooks) => hooks.length >= count)).map((hook) => JSON.parse(hook.body) as { type: string; data: Record<string, unknown> });

    async function subscribe(tenant: Tenant, path: string): Promise<string> {
      const res = await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url(path), events: EVENTS }).expect(200);
      return res.body.data.secret as string;
    }

    it('sends contact.opted_out for each number added and contact.opted_in for each removed, signed, naming the contact', async () => {
      const tenant = await createTenant(t);
      const secret = await subscribe(tenant, '/optout');
      const contact = await t.http().post('/v1/contact').set('Authorization', tenant.auth).send({ phone: ci(101) }).expect(201);

      await add(tenant, { phones: [ci(101), ci(102)] }).expect(200);
      const outs = await bodiesAt('/optout', 2);
      await remove(tenant, encodeURIComponent(ci(101))).expect(200);
      const all = await bodiesAt('/optout', 3);

      for (const hook of receiver.at('/optout')) {
        expect(new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>)).toEqual(JSON.parse(hook.body));
        expect(hook.headers['webhook-event']).toBe(JSON.parse(hook.body).type);
      }
      const byPhone = new Map(outs.map((body) => [body.data.phone, body]));
      expect(byPhone.get(ci(101))).toEqual({
        id: expect.any(String),
        type: 'contact.opted_out',
        created_at: expect.stringMatching(TIME),
        api_version: 'v1',
        data: { phone: ci(101), source: 'api', keyword: null, contact_id: contact.body.data.id, sandbox: false, at: expect.stringMatching(TIME) },
      });
      expect(byPhone.get(ci(102))!.data).toEqual({ phone: ci(102), source: 'api', keyword: null, contact_id: null, sandbox: false, at: expect.stringMatching(TIME) });
      expect(all[2]).toEqual({
        id: expect.any(String),
        type: 'contact.opted_in',
        created_at: expect.stringMatching(TIME),
        api_version: 'v1',
        data: { phone: ci(101), source: 'api', keyword: null, contact_id: contact.body.data.id, sandbox: false, at: expect.stringMatching(TIME) },
      });
    });

    it('sends nothing for numbers already listed, for refused requests and for an entry only its recipient can undo', async () => {
      const tenant = await createTenant(t);
      await add(tenant, { phones: [ci(103)] }).expect(200);
      await insertEntry(tenant, ci(104), 'sms_keyword', { keyword: 'STOP' });
      await subscribe(tenant, '/quiet');

      await add(tenant, { phones: [ci(103)] }).expect(200);
      await add(tenant, { phones: [ci(105), 'abc'] }).expect(400);
      await remove(tenant, encodeURIComponent(ci(104))).expect(409);
      await remove(tenant, encodeURIComponent(ci(106))).expect(404);
      await add(tenant, { phones: [ci(107)] }).expect(200);

      const bodies = await bodiesAt('/quiet', 1);
      expect(bodies.map((body) => [body.type, body.data.phone])).toEqual([['contact.opted_out', ci(107)]]);
      const stored = await t.database.run((sql) => sql.all<{ type: string }>('SELECT type FROM webhook_event WHERE account_id = ?', [tenant.accountId]));
      expect(stored).toEqual([{ type: 'contact.opted_out' }]);
    });

    it('marks the events of a sandbox key sandbox', async () => {
      const live = await createTenant(t);
      const sandbox = await sandboxKeyOf(live);
      await subscribe(live, '/sandbox-events');

      await add(sandbox, { phones: [ci(108)] }).expect(200);
      await remove(sandbox, encodeURIComponent(ci(108))).expect(200);

      const bodies = await bodiesAt('/sandbox-events', 2);
      expect(bodies.map((body) => [body.type, body.data.sandbox]).sort()).toEqual([
        ['contact.opted_in', true],
        ['contact.opted_out', true],
      ]);
    });

    it('sends one event per number added under concurrent requests', async () => {
      const tenant = await createTenant(t);
      await subscribe(tenant, '/concurrent');
      const pool = Array.from({ length: 12 }, (_, i) => ci(110 + i));

      await Promise.all(Array.from({ length: 6 }, (_, i) => add(tenant, { phones: pool.slice(i, i + 7) }).expect(200)));

      const bodies = await bodiesAt('/concurrent', pool.length);
      expect(bodies.map((body) => body.data.phone).sort()).toEqual(pool);
    });
  });

  describe('created range', () => {
    it('filters by created_from (included) and created_to (excluded)', async () => {
      const tenant = await createTenant(t);
      const createdAt = async (phone: string) => {
        await add(tenant, { phones: [phone] }).expect(200);
        const items = (await list(tenant, { limit: '1' }).expect(200)).body.data.items;
        t.clock.advance(10);
        return items[0].created_at as string;
      };
      await createdAt(ci(131));
      const second = await createdAt(ci(132));
      const third = await createdAt(ci(133));

      expect(await listedPhones(tenant, { created_from: second })).toEqual([ci(133), ci(132)]);
      expect(await listedPhones(tenant, { created_to: second })).toEqual([ci(131)]);
      expect(await listedPhones(tenant, { created_from: second, created_to: third })).toEqual([ci(132)]);
      expect(await listedPhones(tenant, { created_from: second.replace('Z', '+00:00'), source: 'api' })).toEqual([ci(133), ci(132)]);
    });
  });
});

describe('OTPs to numbers on the opt-out list', () => {
  const OPTED_OUT = { status: 400, message: 'erreur_de_validation', errors: ['to: destinataire désinscrit (STOP) : les codes ne lui sont pas envoyés'] };
  let t: TestApp;

  afterEach(async () => {
    await t?.close();
  });

  const balanceOf = async (tenant: Tenant) => (await t.http().get('/v1/account').set('Authorization', tenant.auth).expect(200)).body.data.balance as number;
  const optOut = (tenant: Tenant, phone: string) => t.http().post('/v1/opt-out').set('Authorization', tenant.auth).send({ phones: [phone] }).expect(200);
  const sendOtp = (tenant: Tenant, to: string) => t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(to));

  it('are sent by default: the recipient asked for the code', async () => {
    t = await startTestApp({ OPT_OUT_BLOCKS_OTP: 'false' });
    const tenant = await createTenant(t);
    await optOut(tenant, ci(201));

    await sendOtp(tenant, ci(201)).expect(200);
  });

  it('are refused with OPT_OUT_BLOCKS_OTP=true, storing and charging nothing; other numbers, e-mails and the other mode’s list are not affected', async () => {
    t = await startTestApp({ OPT_OUT_BLOCKS_OTP: 'true' });
    const tenant = await createTenant(t);
    await optOut(tenant, ci(202));
    const before = await balanceOf(tenant);

    expect((await sendOtp(tenant, ci(202)).expect(400)).body).toEqual(OPTED_OUT);
    expect(await balanceOf(tenant)).toBe(before);
    const stored = await t.database.run((sql) => sql.all('SELECT uniq_id FROM otp WHERE account_id = ?', [tenant.accountId]));
    expect(stored).toEqual([]);

    await sendOtp(tenant, ci(203)).expect(200);
    await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(emailBody('client@example.com')).expect(200);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    await t.http().post('/v1/otp/send').set('Authorization', `Bearer ${api_key}`).send(smsBody(ci(202))).expect(200);
  });
});
