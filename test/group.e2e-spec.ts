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
  afterAll(() => t.close());

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
});
