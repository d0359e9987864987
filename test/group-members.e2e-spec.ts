import { randomUUID } from 'node:crypto';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const GROUP_NOT_FOUND = { status: 404, message: 'Groupe non trouvé' };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const phoneOf = (n: number) => `+22505${String(100_000_000 + n).slice(1)}`;

describe('/v1/group/{id}/contacts', () => {
  let t: TestApp;
  let tenant: Tenant;
  let stranger: Tenant;

  const newGroup = async (account = tenant) =>
    (await t.http().post('/v1/group').set('Authorization', account.auth).send({ name: `Groupe ${randomUUID()}` })).body.data.id as string;
  const newContact = async (phone: string, account = tenant) =>
    (await t.http().post('/v1/contact').set('Authorization', account.auth).send({ phone })).body.data.id as string;
  const add = (groupId: string, body: object, auth = tenant.auth) => t.http().post(`/v1/group/${groupId}/contacts`).set('Authorization', auth).send(body);
  const members = (groupId: string, query: Record<string, string> = {}, auth = tenant.auth) =>
    t.http().get(`/v1/group/${groupId}/contacts`).query(query).set('Authorization', auth);
  const memberIds = async (groupId: string) => (await members(groupId, { limit: '100' })).body.data.items.map((contact: { id: string }) => contact.id);
  const count = async (groupId: string) => (await t.http().get(`/v1/group/${groupId}`).set('Authorization', tenant.auth)).body.data.contact_count;

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
    stranger = await createTenant(t);
  });
  afterAll(() => t?.close());

  describe('POST', () => {
    it('adds contacts by id and by phone, creating contacts for new phones, and reports the rest', async () => {
      const group = await newGroup();
      const known = await newContact(phoneOf(1));
      const member = await newContact(phoneOf(2));
      await add(group, { contact_ids: [member] });
      const foreign = await newContact(phoneOf(3), stranger);
      const unknown = randomUUID();

      const res = await add(group, { contact_ids: [known, member, foreign, unknown, known], phones: [phoneOf(2), '05 00 00 00 04', '+22507', phoneOf(5)], default_country: 'CI' });

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: {
          added: 3,
          already_member: 1,
          created_contacts: 2,
          rejected: [
            { value: '+22507', reason: 'numéro de téléphone invalide' },
            { value: foreign, reason: 'contact non trouvé' },
            { value: unknown, reason: 'contact non trouvé' },
          ],
        },
      });
      expect(await count(group)).toBe(4);
      const phones = (await members(group)).body.data.items.map((contact: { phone: string }) => contact.phone).sort();
      expect(phones).toEqual([phoneOf(1), phoneOf(2), phoneOf(4), phoneOf(5)].sort());
    });

    it('answers 400 for a body with neither list, or bad lists', async () => {
      const group = await newGroup();

      expect((await add(group, {})).body).toEqual(invalid('body: contact_ids ou phones attendu'));
      expect((await add(group, { contact_ids: ['x'] })).body).toEqual(invalid('contact_ids: doit être une liste de 1 à 1000 identifiants (UUID)'));
      expect((await add(group, { phones: [1] })).body).toEqual(invalid('phones: doit être une liste de 1 à 1000 chaînes de caractères'));
      expect((await add(group, { phones: Array.from({ length: 1001 }, (_, n) => phoneOf(n)) })).body).toEqual(
        invalid('phones: doit être une liste de 1 à 1000 chaînes de caractères'),
      );
    });

    it("answers 404 for an unknown, malformed or another account's group", async () => {
      const foreign = await newGroup(stranger);

      for (const group of [foreign, randomUUID(), 'nope']) expect((await add(group, { phones: [phoneOf(9)] })).body).toEqual(GROUP_NOT_FOUND);
    });

    it('adds one member and one contact under 20 concurrent adds of the same phone', async () => {
      const group = await newGroup();

      const answers = await Promise.all(Array.from({ length: 20 }, () => add(group, { phones: [phoneOf(20)] })));

      expect(answers.every((res) => res.status === 200)).toBe(true);
      expect(answers.reduce((sum, res) => sum + res.body.data.added, 0)).toBe(1);
      expect(answers.reduce((sum, res) => sum + res.body.data.created_contacts, 0)).toBe(1);
      expect(await count(group)).toBe(1);
      const contacts = await t.http().get('/v1/contact').query({ q: phoneOf(20) }).set('Authorization', tenant.auth);
      expect(contacts.body.data.items).toHaveLength(1);
    });
  });

  describe('GET', () => {
    it('lists the members newest contact first, in pages', async () => {
      const group = await newGroup();
      const ids = [];
      for (let n = 30; n < 35; n++) ids.push(await newContact(phoneOf(n)));
      await add(group, { contact_ids: [...ids].reverse() });
      await newContact(phoneOf(35));

      const first = await members(group, { limit: '3' });
      const rest = await members(group, { limit: '3', cursor: first.body.data.next_cursor });

      expect(first.body.data.items.map((contact: { id: string }) => contact.id)).toEqual(ids.slice(2).reverse());
      expect(rest.body.data).toEqual({ items: ids.slice(0, 2).reverse().map((id) => expect.objectContaining({ id })), next_cursor: null, has_more: false });
    });

    it("answers 404 for another account's group, and 400 for a cursor of another group", async () => {
      const group = await newGroup();
      await add(group, { phones: [phoneOf(40), phoneOf(41)] });
      const cursor = (await members(group, { limit: '1' })).body.data.next_cursor;

      expect((await members(group, {}, stranger.auth)).body).toEqual(GROUP_NOT_FOUND);
      expect((await members(await newGroup(), { cursor })).body).toEqual(invalid('cursor: curseur invalide'));
    });
  });

  describe('removal', () => {
    it('removes members by id, keeping the contacts, and counts what it removed', async () => {
      const group = await newGroup();
      const [a, b, c] = [await newContact(phoneOf(50)), await newContact(phoneOf(51)), await newContact(phoneOf(52))];
      await add(group, { contact_ids: [a, b, c] });

      const res = await t.http().post(`/v1/group/${group}/contacts/remove`).set('Authorization', tenant.auth).send({ contact_ids: [a, b, randomUUID(), a] });

      expect(res.body).toEqual({ status: 200, message: 'succès', data: { removed: 2 } });
      expect(await memberIds(group)).toEqual([c]);
      expect(await count(group)).toBe(1);
      expect((await t.http().get(`/v1/contact/${a}`).set('Authorization', tenant.auth)).status).toBe(200);
    });

    it('removes one member, and answers 404 when the contact is not a member', async () => {
      const group = await newGroup();
      const contact = await newContact(phoneOf(60));
      await add(group, { contact_ids: [contact] });
      const removeOne = (id: string, groupId = group) => t.http().delete(`/v1/group/${groupId}/contacts/${id}`).set('Authorization', tenant.auth);

      expect((await removeOne(contact)).body).toEqual({ status: 200, message: 'success' });
      expect(await count(group)).toBe(0);
      expect((await removeOne(contact)).body).toEqual({ status: 404, message: 'Contact non trouvé' });
      expect((await removeOne('nope')).body).toEqual({ status: 404, message: 'Contact non trouvé' });
      expect((await removeOne(contact, await newGroup(stranger))).body).toEqual(GROUP_NOT_FOUND);
    });

    it('answers 400 for a bad list', async () => {
      const res = await t.http().post(`/v1/group/${await newGroup()}/contacts/remove`).set('Authorization', tenant.auth).send({ contact_ids: [] });

      expect(res.body).toEqual(invalid('contact_ids: doit être une liste de 1 à 1000 identifiants (UUID)'));
    });
  });
});
