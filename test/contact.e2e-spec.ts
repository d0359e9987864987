import { randomUUID } from 'node:crypto';
import { newId } from '../src/common/ids.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CONTACT_NOT_FOUND = { status: 404, message: 'Contact non trouvé' };
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PHONE_INVALID = 'numéro de téléphone invalide (format international attendu, par exemple +2250707070707)';
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });

let serial = 0;
/** A phone number no other test of this file uses. */
const nextPhone = () => `+22507${String(100_000_000 + ++serial).slice(1)}`;

describe('/v1/contact', () => {
  let t: TestApp;
  let tenant: Tenant;
  let stranger: Tenant;

  const create = (body: object, auth = tenant.auth) => t.http().post('/v1/contact').set('Authorization', auth).send(body);
  const get = (id: string, auth = tenant.auth) => t.http().get(`/v1/contact/${id}`).set('Authorization', auth);
  const patch = (id: string, body: object, auth = tenant.auth) => t.http().patch(`/v1/contact/${id}`).set('Authorization', auth).send(body);
  const remove = (id: string, auth = tenant.auth) => t.http().delete(`/v1/contact/${id}`).set('Authorization', auth);
  const list = (query: Record<string, string> = {}, auth = tenant.auth) => t.http().get('/v1/contact').query(query).set('Authorization', auth);
  const newGroup = async (account: Tenant = tenant) =>
    (await t.http().post('/v1/group').set('Authorization', account.auth).send({ name: `Groupe ${randomUUID()}` })).body.data.id as string;
  const contactCount = async (groupId: string) => (await t.http().get(`/v1/group/${groupId}`).set('Authorization', tenant.auth)).body.data.contact_count;
  const optOut = (account: Tenant, phone: string, sandbox = false) =>
    t.database.run((sql) =>
      sql.run('INSERT INTO opt_out (id, account_id, sandbox, phone, source, created_at) VALUES (?, ?, ?, ?, ?, ?)', [newId(), account.accountId, sandbox, phone, 'api', new Date()]),
    );

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
    stranger = await createTenant(t);
  });
  afterAll(() => t?.close());

  describe('POST', () => {
    it('answers 201 succès with the whole contact', async () => {
      const phone = nextPhone();
      const res = await create({ phone, name: 'Awa Koné', email: 'Awa.Kone@Example.com', language: 'en', attributes: { ville: 'Abidjan' } });

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        status: 201,
        message: 'succès',
        data: {
          id: expect.any(String),
          company_id: tenant.accountId,
          name: 'Awa Koné',
          email: 'awa.kone@example.com',
          phone,
          country: 'CI',
          language: 'en',
          attributes: { ville: 'Abidjan' },
          opted_out: false,
          created_by: tenant.userId,
          created_at: expect.stringMatching(TIME),
          updated_at: res.body.data.created_at,
        },
      });
    });

    it('takes a phone alone, with the defaults', async () => {
      const res = await create({ phone: '+33 6 12 34 56 78' });

      expect(res.status).toBe(201);
      expect(res.body.data).toEqual(
        expect.objectContaining({ phone: '+33612345678', country: 'FR', name: null, email: null, language: 'fr', attributes: {}, opted_out: false }),
      );
    });

    it('reads a national phone in default_country', async () => {
      const res = await create({ phone: '77 123 45 67', default_country: 'SN' });

      expect(res.status).toBe(201);
      expect(res.body.data).toEqual(expect.objectContaining({ phone: '+221771234567', country: 'SN' }));
    });

    it('puts the contact in the groups given', async () => {
      const [first, second] = [await newGroup(), await newGroup()];

      const res = await create({ phone: nextPhone(), group_ids: [first, second, first] });

      expect(res.status).toBe(201);
      expect((await get(res.body.data.id)).body.data.group_ids).toEqual([first, second].sort());
      expect(await contactCount(first)).toBe(1);
    });

    it('answers 409 deja_existant, naming the contact, for a phone the account has', async () => {
      const phone = nextPhone();
      const { id } = (await create({ phone })).body.data;

      const res = await create({ phone: phone.replace('+', '00'), name: 'Autre' });

      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 409, message: 'deja_existant', errors: [`phone: un contact existe déjà (id ${id})`] });
    });

    it("takes a phone another account has", async () => {
      const phone = nextPhone();
      expect((await create({ phone }, stranger.auth)).status).toBe(201);
      expect((await create({ phone })).status).toBe(201);
    });

    it.each<[string, object, string[]]>([
      ['no phone', {}, ['phone: est obligatoire']],
      ['a phone that is not text', { phone: 2250707070707 }, ['phone: doit être une chaîne de caractères']],
      ['an invalid phone', { phone: '+22507' }, [`phone: ${PHONE_INVALID}`]],
      ['a national phone without default_country', { phone: '0707070707' }, [`phone: ${PHONE_INVALID}`]],
      ['a name too long', { phone: '+2250707070707', name: 'x'.repeat(101) }, ['name: ne doit pas dépasser 100 caractères']],
      ['a name that is not text', { phone: '+2250707070707', name: 12 }, ['name: doit être une chaîne de caractères']],
      ['an invalid e-mail', { phone: '+2250707070707', email: 'awa@' }, ['email: adresse e-mail invalide']],
      ['an unknown language', { phone: '+2250707070707', language: 'de' }, ['language: doit valoir fr, en, es ou pt']],
      ['attributes that are not an object', { phone: '+2250707070707', attributes: ['a'] }, ['attributes: doit être un objet']],
      [
        'too many attributes',
        { phone: '+2250707070707', attributes: Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, 'v'])) },
        ['attributes: 20 clés au plus'],
      ],
      [
        'an attribute key out of the alphabet',
        { phone: '+2250707070707', attributes: { Ville: 'Abidjan' } },
        ['attributes: clé « Ville » invalide (a-z, 0-9 et _, 32 caractères au plus)'],
      ],
      ['an attribute value that is not text', { phone: '+2250707070707', attributes: { age: 32 } }, ['attributes: age: doit être une chaîne de caractères']],
      ['an attribute value too long', { phone: '+2250707070707', attributes: { note: 'x'.repeat(256) } }, ['attributes: note: ne doit pas dépasser 255 caractères']],
      ['an unknown default_country', { phone: '0707070707', default_country: 'XX' }, [
        'default_country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)',
        `phone: ${PHONE_INVALID}`,
      ]],
      ['group_ids that are not ids', { phone: '+2250707070707', group_ids: ['x'] }, ['group_ids: doit être une liste de 1 à 100 identifiants (UUID)']],
    ])('answers 400 for %s', async (_case, body, errors) => {
      const res = await create(body);

      expect(res.status).toBe(400);
      expect(res.body.status).toBe(400);
      expect(res.body.message).toBe('erreur_de_validation');
      expect([...res.body.errors].sort()).toEqual([...errors].sort());
    });

    it("answers 400 for a group that is not the account's, and stores nothing", async () => {
      const phone = nextPhone();
      const foreign = await newGroup(stranger);

      const res = await create({ phone, group_ids: [await newGroup(), foreign] });

      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('group_ids[1]: groupe non trouvé'));
      expect((await list({ q: phone.slice(1) })).body.data.items).toEqual([]);
    });
  });

  describe('GET /{id}', () => {
    it('answers the contact with its groups', async () => {
      const group = await newGroup();
      const { id } = (await create({ phone: nextPhone(), group_ids: [group] })).body.data;

      const res = await get(id);

      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(expect.objectContaining({ id, group_ids: [group] }));
    });

    it.each([randomUUID(), 'not-a-uuid', '12345'])('answers 404 Contact non trouvé for %s', async (id) => {
      const res = await get(id);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(CONTACT_NOT_FOUND);
    });

    it("answers 404 for another account's contact", async () => {
      const { id } = (await create({ phone: nextPhone() }, stranger.auth)).body.data;

      expect((await get(id)).body).toEqual(CONTACT_NOT_FOUND);
    });

    it('derives opted_out from the opt-out list of the key’s mode', async () => {
      const phone = nextPhone();
      const { id } = (await create({ phone })).body.data;
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);

      await optOut(tenant, phone, true);
      expect((await get(id)).body.data.opted_out).toBe(false);
      expect((await get(id, `Bearer ${api_key}`)).body.data.opted_out).toBe(true);
      await optOut(tenant, phone);
      expect((await get(id)).body.data.opted_out).toBe(true);
    });
  });

  describe('PATCH /{id}', () => {
    it('writes the fields given and leaves the others', async () => {
      const { id, created_at } = (await create({ phone: nextPhone(), name: 'Awa', email: 'awa@example.com', attributes: { a: '1', b: '2' } })).body.data;
      t.clock.advance(1);

      const res = await patch(id, { name: 'Awa Koné', attributes: { c: '3' } });

      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(expect.objectContaining({ id, name: 'Awa Koné', email: 'awa@example.com', attributes: { c: '3' }, created_at }));
      expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(created_at));
    });

    it('clears a name or e-mail with null and changes the phone and its country', async () => {
      const { id } = (await create({ phone: nextPhone(), name: 'Awa', email: 'awa@example.com' })).body.data;

      const res = await patch(id, { name: null, email: null, phone: '+237671234567' });

      expect(res.body.data).toEqual(expect.objectContaining({ name: null, email: null, phone: '+237671234567', country: 'CM' }));
    });

    it("answers 409 for another contact's phone", async () => {
      const taken = (await create({ phone: nextPhone() })).body.data;
      const { id } = (await create({ phone: nextPhone() })).body.data;

      const res = await patch(id, { phone: taken.phone });

      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 409, message: 'deja_existant', errors: [`phone: un contact existe déjà (id ${taken.id})`] });
    });

    it('answers 400 without any field, and for a bad field', async () => {
      const { id } = (await create({ phone: nextPhone() })).body.data;

      expect((await patch(id, {})).body).toEqual(invalid('body: au moins un champ attendu (phone, name, email, language, attributes)'));
      expect((await patch(id, { opted_out: true })).body).toEqual(
        invalid('body: au moins un champ attendu (phone, name, email, language, attributes)', 'opted_out: champ inconnu'),
      );
      expect((await patch(id, { email: 'nope' })).body).toEqual(invalid('email: adresse e-mail invalide'));
    });

    it("answers 404 for an unknown, malformed or another account's contact", async () => {
      const { id } = (await create({ phone: nextPhone() }, stranger.auth)).body.data;

      for (const target of [id, randomUUID(), 'nope']) expect((await patch(target, { name: 'x' })).body).toEqual(CONTACT_NOT_FOUND);
    });
  });

  describe('DELETE /{id}', () => {
    it('deletes the contact and its memberships, and keeps its opt-out entry', async () => {
      const group = await newGroup();
      const phone = nextPhone();
      const { id } = (await create({ phone, group_ids: [group] })).body.data;
      await optOut(tenant, phone);

      const res = await remove(id);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 200, message: 'success' });
      expect((await get(id)).body).toEqual(CONTACT_NOT_FOUND);
      expect(await contactCount(group)).toBe(0);
      const entries = await t.database.run((sql) => sql.all('SELECT phone FROM opt_out WHERE account_id = ? AND phone = ?', [tenant.accountId, phone]));
      expect(entries).toHaveLength(1);
    });

    it("answers 404 for an unknown, malformed or another account's contact", async () => {
      const { id } = (await create({ phone: nextPhone() }, stranger.auth)).body.data;

      for (const target of [id, randomUUID(), 'nope']) expect((await remove(target)).body).toEqual(CONTACT_NOT_FOUND);
      expect((await get(id, stranger.auth)).status).toBe(200);
    });
  });

  describe('GET (list and search)', () => {
    let account: Tenant;
    const names = ['Élodie Bamba', 'Eloi Konan', 'Awa Traoré', 'Koffi Yao', 'Aya Kouassi'];
    const contacts: Array<{ id: string; name: string; phone: string; email: string }> = [];

    beforeAll(async () => {
      account = await createTenant(t);
      for (const [n, name] of names.entries()) {
        const body = { phone: `+2250505${String(n).padStart(6, '0')}`, name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` };
        contacts.push((await create(body, account.auth)).body.data);
      }
    });
    const ids = (res: { body: { data: { items: Array<{ id: string }> } } }) => res.body.data.items.map((item) => item.id);

    it('lists newest first, with the list envelope', async () => {
      const res = await list({}, account.auth);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 200, message: 'succès', data: { items: expect.any(Array), next_cursor: null, has_more: false } });
      expect(ids(res)).toEqual(contacts.map((contact) => contact.id).reverse());
    });

    it('pages with the cursor', async () => {
      const first = await list({ limit: '2' }, account.auth);
      const second = await list({ limit: '2', cursor: first.body.data.next_cursor }, account.auth);
      const last = await list({ limit: '2', cursor: second.body.data.next_cursor }, account.auth);

      expect([...ids(first), ...ids(second), ...ids(last)]).toEqual(contacts.map((contact) => contact.id).reverse());
      expect(first.body.data.has_more).toBe(true);
      expect(last.body.data).toEqual(expect.objectContaining({ has_more: false, next_cursor: null }));
    });

    it.each<[string, string, string[]]>([
      ['the start of a name, accents and case ignored', 'elo', ['Élodie Bamba', 'Eloi Konan']],
      ['the start of an accented name typed with its accent', 'Élodie', ['Élodie Bamba']],
      ['the start of an e-mail address', 'KOFFI@', ['Koffi Yao']],
      ['the start of the phone digits', '225050500000', names],
      ['the start of the phone in international form', '+225 05 05 00 00 03', ['Koffi Yao']],
    ])('searches by %s', async (_case, q, expected) => {
      const res = await list({ q }, account.auth);

      expect(res.status).toBe(200);
      expect(res.body.data.items.map((item: { name: string }) => item.name).sort()).toEqual([...expected].sort());
    });

    it('finds nothing for a name that is only in the middle', async () => {
      expect((await list({ q: 'kone' }, account.auth)).body.data.items).toEqual([]);
    });

    it('filters by group and by opt-out, and the cursor is bound to the filters', async () => {
      const group = await newGroup(account);
      await t.http().post(`/v1/group/${group}/contacts`).set('Authorization', account.auth).send({ contact_ids: [contacts[1]!.id, contacts[3]!.id] });
      await optOut(account, contacts[3]!.phone);

      expect(ids(await list({ group_id: group }, account.auth))).toEqual([contacts[3]!.id, contacts[1]!.id]);
      expect(ids(await list({ opted_out: 'true' }, account.auth))).toEqual([contacts[3]!.id]);
      expect(ids(await list({ opted_out: 'false', group_id: group }, account.auth))).toEqual([contacts[1]!.id]);

      const cursor = (await list({ limit: '1', group_id: group }, account.auth)).body.data.next_cursor;
      expect((await list({ cursor, group_id: group }, account.auth)).status).toBe(200);
      expect((await list({ cursor }, account.auth)).body).toEqual(invalid('cursor: curseur invalide'));
    });

    it('filters by creation time', async () => {
      const late = await createTenant(t);
      const before = (await create({ phone: nextPhone() }, late.auth)).body.data;
      t.clock.advance(3600);
      const from = new Date(Date.now() + 3600_000 - 1000).toISOString();
      const after = (await create({ phone: nextPhone() }, late.auth)).body.data;

      expect(ids(await list({ created_from: from }, late.auth))).toEqual([after.id]);
      expect(ids(await list({ created_to: from }, late.auth))).toEqual([before.id]);
    });

    it("shows no other account's contacts", async () => {
      expect(ids(await list({ q: '2250505' }))).toEqual([]);
    });

    it.each<[Record<string, string>, string]>([
      [{ q: 'a' }, 'q: doit faire au moins 2 caractères'],
      [{ group_id: 'x' }, 'group_id: doit être un identifiant (UUID)'],
      [{ opted_out: 'yes' }, 'opted_out: doit valoir true ou false'],
      [{ created_from: '2026-01-01' }, 'created_from: date ISO 8601 avec fuseau attendue'],
      [{ limit: '0' }, 'limit: doit être un entier compris entre 1 et 100'],
      [{ cursor: 'nope' }, 'cursor: curseur invalide'],
    ])('answers 400 for %j', async (query, error) => {
      expect((await list(query)).body).toEqual(invalid(error));
    });

    it('walks every contact that existed at the start exactly once while another client inserts', async () => {
      const busy = await createTenant(t);
      const existing: string[] = [];
      for (let n = 0; n < 45; n++) existing.push((await create({ phone: nextPhone() }, busy.auth)).body.data.id);

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const [page] = await Promise.all([
          list(cursor ? { limit: '7', cursor } : { limit: '7' }, busy.auth),
          create({ phone: nextPhone() }, busy.auth),
          create({ phone: nextPhone() }, busy.auth),
        ]);
        seen.push(...ids(page));
        cursor = page.body.data.next_cursor ?? undefined;
      } while (cursor);

      expect(seen.filter((id) => existing.includes(id))).toEqual([...existing].reverse());
      expect(new Set(seen).size).toBe(seen.length);
    });
  });
});
