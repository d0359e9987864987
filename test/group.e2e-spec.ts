import { randomUUID } from 'node:crypto';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const GROUP_NOT_FOUND = { status: 404, message: 'Groupe non trouvé' };

describe('/v1/group/{id}', () => {
  let t: TestApp;
  let tenant: Tenant;
  let stranger: Tenant;

  const get = (id: string, auth = tenant.auth) => t.http().get(`/v1/group/${id}`).set('Authorization', auth);
  const remove = (id: string, auth = tenant.auth) => t.http().delete(`/v1/group/${id}`).set('Authorization', auth);
  const membersOf = (groupId: string) =>
    t.database.run((sql) => sql.all<{ contact_id: string }>('SELECT contact_id FROM contact_group_member WHERE group_id = ?', [groupId]));
  const contactIds = (accountId: string) =>
    t.database.run(async (sql) =>
      (await sql.all<{ id: string }>('SELECT id FROM contact WHERE account_id = ?', [accountId])).map((row) => row.id).sort(),
    );

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
    stranger = await createTenant(t);
  });
  afterAll(() => t?.close());

  describe('GET', () => {
    it('answers 200 succès with the whole group', async () => {
      const before = t.clock.now().getTime();
      const { id } = await t.admin.createGroup(tenant.accountId, 'Clients VIP', 'Clients à relancer chaque mois');

      const res = await get(id);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: {
          id,
          company_id: tenant.accountId,
          name: 'Clients VIP',
          description: 'Clients à relancer chaque mois',
          contact_count: 0,
          created_by: tenant.userId,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          updated_at: res.body.data.created_at,
        },
      });
      expect(Date.parse(res.body.data.created_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(res.body.data.created_at)).toBeLessThanOrEqual(t.clock.now().getTime());
    });

    it('answers a group without description with description null', async () => {
      const { id } = await t.admin.createGroup(tenant.accountId, 'Sans description');

      const res = await get(id);

      expect(res.body.data).toEqual(expect.objectContaining({ id, name: 'Sans description', description: null }));
    });

    it('answers 404 Groupe non trouvé, without errors, for an unknown id', async () => {
      const res = await get(randomUUID());

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });

    it.each(['not-a-uuid', '12345', '0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a2'])('answers 404 for the malformed id %s', async (id) => {
      const res = await get(id);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });

    it("answers 404 for another account's group", async () => {
      const { id } = await t.admin.createGroup(stranger.accountId, 'Leur groupe');

      const res = await get(id);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });
  });

  describe('DELETE', () => {
    it('answers 200 success with no data', async () => {
      const { id } = await t.admin.createGroup(tenant.accountId, 'À supprimer');

      const res = await remove(id);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 200, message: 'success' });
    });

    it('makes the group unreadable', async () => {
      const { id } = await t.admin.createGroup(tenant.accountId, 'Éphémère');

      await remove(id);
      const res = await get(id);

      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });

    it('answers 404 to a second DELETE', async () => {
      const { id } = await t.admin.createGroup(tenant.accountId, 'Deux fois');
      await remove(id);

      const res = await remove(id);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });

    it('answers 404 for an unknown id', async () => {
      const res = await remove(randomUUID());

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });

    it('answers 404 for a malformed id', async () => {
      const res = await remove('not-a-uuid');

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
    });

    it("answers 404 for another account's group and leaves it in place", async () => {
      const { id } = await t.admin.createGroup(stranger.accountId, 'Pas à vous');
      await t.admin.createContact(stranger.accountId, { phone: '+2250707000001', group: id });

      const res = await remove(id);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(GROUP_NOT_FOUND);
      expect((await get(id, stranger.auth)).body).toEqual(expect.objectContaining({ status: 200, data: expect.objectContaining({ id }) }));
      expect(await membersOf(id)).toHaveLength(1);
    });

    it('removes the memberships of the group and keeps its contacts', async () => {
      const account = await createTenant(t);
      const { id } = await t.admin.createGroup(account.accountId, 'Membres');
      const { contact_id: first } = await t.admin.createContact(account.accountId, { name: 'Awa', phone: '+2250707000002', group: id });
      const { contact_id: second } = await t.admin.createContact(account.accountId, { name: 'Koffi', phone: '+2250707000003', group: id });
      expect(await membersOf(id)).toHaveLength(2);

      await remove(id, account.auth);

      expect(await membersOf(id)).toEqual([]);
      expect(await contactIds(account.accountId)).toEqual([first, second].sort());
    });

    it("leaves the memberships of the account's other groups alone", async () => {
      const { id: deleted } = await t.admin.createGroup(tenant.accountId, 'Supprimé');
      const { id: kept } = await t.admin.createGroup(tenant.accountId, 'Gardé');
      const { contact_id } = await t.admin.createContact(tenant.accountId, { phone: '+2250707000004', group: kept });
      await t.admin.createContact(tenant.accountId, { phone: '+2250707000005', group: deleted });

      await remove(deleted);

      expect(await membersOf(kept)).toEqual([{ contact_id }]);
    });
  });

  describe('POST /group', () => {
    const create = (body: object, auth = tenant.auth) => t.http().post('/v1/group').set('Authorization', auth).send(body);

    it('answers 201 succès with the new group', async () => {
      const res = await create({ name: '  Clients Abidjan ', description: 'Relances' });

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        status: 201,
        message: 'succès',
        data: {
          id: expect.any(String),
          company_id: tenant.accountId,
          name: 'Clients Abidjan',
          description: 'Relances',
          contact_count: 0,
          created_by: tenant.userId,
          created_at: expect.stringMatching(/Z$/),
          updated_at: res.body.data.created_at,
        },
      });
      expect((await get(res.body.data.id)).body.data).toEqual(res.body.data);
    });

    it('answers 409 deja_existant for a name the account has, case ignored; another account may have it', async () => {
      const { id } = (await create({ name: 'Fidèles' })).body.data;

      const res = await create({ name: 'FIDÈLES' });

      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 409, message: 'deja_existant', errors: [`name: un groupe porte déjà ce nom (id ${id})`] });
      expect((await create({ name: 'Fidèles' }, stranger.auth)).status).toBe(201);
    });

    it.each<[object, string]>([
      [{}, 'name: est obligatoire'],
      [{ name: '' }, 'name: ne doit pas être vide'],
      [{ name: '   ' }, 'name: ne doit pas être vide'],
      [{ name: 'x'.repeat(101) }, 'name: ne doit pas dépasser 100 caractères'],
      [{ name: 42 }, 'name: doit être une chaîne de caractères'],
      [{ name: 'Ok', description: 'x'.repeat(501) }, 'description: ne doit pas dépasser 500 caractères'],
    ])('answers 400 for %j', async (body, error) => {
      expect((await create(body)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [error] });
    });

    it('makes one group of a name under 20 concurrent creations', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => create({ name: 'Concurrence' })));

      expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
      expect(answers.filter((res) => res.status === 409)).toHaveLength(19);
    });
  });

  describe('GET /group', () => {
    let account: Tenant;
    const list = (query: Record<string, string> = {}) => t.http().get('/v1/group').query(query).set('Authorization', account.auth);
    const names = (res: { body: { data: { items: Array<{ name: string }> } } }) => res.body.data.items.map((group) => group.name);

    beforeAll(async () => {
      account = await createTenant(t);
      for (const name of ['Clients Abidjan', 'Clients Dakar', 'Fournisseurs', 'clients vip']) {
        await t.http().post('/v1/group').set('Authorization', account.auth).send({ name });
      }
    });

    it('lists newest first, with contact_count, and pages with the cursor', async () => {
      const first = await list({ limit: '3' });
      const rest = await list({ limit: '3', cursor: first.body.data.next_cursor });

      expect(first.status).toBe(200);
      expect(names(first)).toEqual(['clients vip', 'Fournisseurs', 'Clients Dakar']);
      expect(first.body.data.items[0]).toEqual(expect.objectContaining({ contact_count: 0, company_id: account.accountId }));
      expect(rest.body.data).toEqual({ items: [expect.objectContaining({ name: 'Clients Abidjan' })], next_cursor: null, has_more: false });
    });

    it('filters by the creation time the service gives a group', async () => {
      const tenant = await createTenant(t);
      const create = (name: string) => t.http().post('/v1/group').set('Authorization', tenant.auth).send({ name }).expect(201);
      await create('Hier');
      t.clock.advance(86_400);
      const since = t.clock.now().toISOString();
      await create("Aujourd'hui");
      const listed = (query: Record<string, string>) => t.http().get('/v1/group').query(query).set('Authorization', tenant.auth);

      expect(names(await listed({ created_from: since }))).toEqual(["Aujourd'hui"]);
      expect(names(await listed({ created_to: since }))).toEqual(['Hier']);
    });

    it('searches by the start of the name, case ignored', async () => {
      expect(names(await list({ q: 'CLIENTS' }))).toEqual(['clients vip', 'Clients Dakar', 'Clients Abidjan']);
      expect(names(await list({ q: 'dakar' }))).toEqual([]);
    });

    it('refuses a cursor made for another search', async () => {
      const cursor = (await list({ limit: '1', q: 'clients' })).body.data.next_cursor;

      expect((await list({ cursor })).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['cursor: curseur invalide'] });
    });
  });

  describe('PATCH /group/{id}', () => {
    const update = (id: string, body: object, auth = tenant.auth) => t.http().patch(`/v1/group/${id}`).set('Authorization', auth).send(body);

    it('renames and redescribes', async () => {
      const { id } = await t.admin.createGroup(tenant.accountId, 'Ancien nom', 'Ancienne description');
      t.clock.advance(1);

      const renamed = await update(id, { name: 'Nouveau nom' });
      const cleared = await update(id, { description: null });

      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toEqual(expect.objectContaining({ id, name: 'Nouveau nom', description: 'Ancienne description' }));
      expect(Date.parse(renamed.body.data.updated_at)).toBeGreaterThan(Date.parse(renamed.body.data.created_at));
      expect(cleared.body.data).toEqual(expect.objectContaining({ name: 'Nouveau nom', description: null }));
    });

    it('keeps its own name with another case, and answers 409 for a name another group has', async () => {
      const { id: taken } = await t.admin.createGroup(tenant.accountId, 'Pris');
      const { id } = await t.admin.createGroup(tenant.accountId, 'Libre');

      expect((await update(id, { name: 'LIBRE' })).body.data.name).toBe('LIBRE');
      expect((await update(id, { name: 'pris' })).body).toEqual({
        status: 409,
        message: 'deja_existant',
        errors: [`name: un groupe porte déjà ce nom (id ${taken})`],
      });
    });

    it('answers 400 without any field', async () => {
      const { id } = await t.admin.createGroup(tenant.accountId, 'Vide');

      expect((await update(id, {})).body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['body: au moins un champ attendu (name, description)'] });
    });

    it("answers 404 for an unknown, malformed or another account's group", async () => {
      const { id } = await t.admin.createGroup(stranger.accountId, 'Étranger');

      for (const target of [id, randomUUID(), 'nope']) expect((await update(target, { name: 'x' })).body).toEqual(GROUP_NOT_FOUND);
    });
  });
});
