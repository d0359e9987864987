import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const NOT_FOUND = { status: 404, message: 'Campagne non trouvée' };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** `+22507080` followed by `n` on 5 digits: a valid Ivorian mobile number. */
const ci = (n: number) => `+22507080${String(n).padStart(5, '0')}`;

describe('campaign drafts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (tenant: Tenant, body: object) => t.http().post('/v1/campaign').set('Authorization', tenant.auth).send(body);
  const read = (tenant: Tenant, id: string) => t.http().get(`/v1/campaign/${id}`).set('Authorization', tenant.auth);
  const patch = (tenant: Tenant, id: string, body: object) => t.http().patch(`/v1/campaign/${id}`).set('Authorization', tenant.auth).send(body);
  const remove = (tenant: Tenant, id: string) => t.http().delete(`/v1/campaign/${id}`).set('Authorization', tenant.auth);
  const list = (tenant: Tenant, query = '') => t.http().get(`/v1/campaign${query}`).set('Authorization', tenant.auth);
  const newGroup = async (tenant: Tenant, phones: string[] = []) => {
    const id = (await t.http().post('/v1/group').set('Authorization', tenant.auth).send({ name: `Groupe ${Math.random()}` }).expect(201)).body.data.id as string;
    if (phones.length > 0) await t.http().post(`/v1/group/${id}/contacts`).set('Authorization', tenant.auth).send({ phones }).expect(200);
    return id;
  };

  it('creates a draft (201) with the defaults, reads it back and lists it', async () => {
    const tenant = await createTenant(t);
    const group = await newGroup(tenant, [ci(1)]);

    const response = await create(tenant, { name: 'Soldes de mars', message: 'Bonjour ##NAME##', group_ids: [group] }).expect(201);

    const draft = response.body.data;
    expect(response.body).toMatchObject({ status: 201, message: 'succès' });
    expect(draft).toEqual({
      id: expect.any(String),
      company_id: tenant.accountId,
      name: 'Soldes de mars',
      message: 'Bonjour ##NAME##',
      sender_id: null,
      group_ids: [group],
      exclude_group_ids: [],
      send_at: null,
      delivery_window: null,
      webhook_url: null,
      append_opt_out: true,
      status: 'draft',
      lot: null,
      counts: {
        recipients: 0,
        excluded: { desinscrit: 0, numero_invalide: 0, doublon: 0, destination_non_prise_en_charge: 0, exclu_par_groupe: 0 },
        scheduled: 0,
        pending: 0,
        sent: 0,
        delivered: 0,
        undelivered: 0,
        failed: 0,
        cancelled: 0,
      },
      amount: 0,
      refunded: 0,
      sandbox: false,
      created_by: tenant.userId,
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
      launched_at: null,
      started_at: null,
      completed_at: null,
      cancelled_at: null,
      cancel_reason: null,
    });
    expect((await read(tenant, draft.id).expect(200)).body).toEqual({ status: 200, message: 'succès', data: draft });
    expect((await list(tenant).expect(200)).body.data).toEqual({ items: [draft], next_cursor: null, has_more: false });
  });

  it('keeps every option given: sender, excluded groups, send_at, delivery window, webhook, no opt-out text', async () => {
    const tenant = await createTenant(t);
    const [group, excluded] = [await newGroup(tenant), await newGroup(tenant)];
    const sendAt = new Date(Date.now() + 86_400_000).toISOString();
    const options = {
      name: 'Relance',
      message: 'Rappel',
      sender: 'demo',
      group_ids: [group],
      exclude_group_ids: [excluded],
      delivery_window: { days: ['mon', 'tue'], from: '08:00', to: '20:00', timezone: 'Africa/Abidjan' },
      webhook_url: 'http://127.0.0.1:8080/hooks/sms',
      append_opt_out: false,
    };

    const draft = (await create(tenant, { ...options, send_at: sendAt }).expect(201)).body.data;

    const { sender, ...shown } = options;
    expect(sender).toBe('demo');
    expect(draft).toMatchObject({ ...shown, sender_id: tenant.senderId, send_at: sendAt });
  });

  it('refuses bad fields one by one (400), unknown groups and senders included', async () => {
    const tenant = await createTenant(t);
    const group = await newGroup(tenant);
    const stranger = await newGroup(await createTenant(t));

    expect((await create(tenant, {}).expect(400)).body).toEqual(
      invalid('name: est obligatoire', 'message: est obligatoire', 'group_ids: est obligatoire'),
    );
    expect((await create(tenant, { name: '', message: 'x', group_ids: [] }).expect(400)).body).toEqual(
      invalid('name: doit faire de 1 à 100 caractères', 'group_ids: doit être une liste de 1 à 20 identifiants (UUID)'),
    );
    expect((await create(tenant, { name: 'a', message: 'x', group_ids: [group], exclude_group_ids: [stranger] }).expect(400)).body).toEqual(
      invalid('exclude_group_ids[0]: groupe inconnu'),
    );
    expect((await create(tenant, { name: 'a', message: 'x', group_ids: [stranger] }).expect(400)).body).toEqual(invalid('group_ids[0]: groupe inconnu'));
    expect((await create(tenant, { name: 'a', message: 'x', group_ids: [group], sender: 'NOBODY' }).expect(400)).body).toEqual(
      invalid('sender: expéditeur inconnu'),
    );
    expect((await create(tenant, { name: 'a', message: 'x', group_ids: [group], send_at: '2026-03-01T08:00:00' }).expect(400)).body).toEqual(
      invalid('send_at: date ISO 8601 avec fuseau attendue'),
    );
    const farAway = new Date(Date.now() + 40 * 86_400_000).toISOString();
    expect((await create(tenant, { name: 'a', message: 'x', group_ids: [group], send_at: farAway }).expect(400)).body).toEqual(
      invalid('send_at: doit être au plus dans 35 jours'),
    );
    expect((await create(tenant, { name: 'a', message: 'x', group_ids: [group], append_opt_out: 'yes' }).expect(400)).body).toEqual(
      invalid('append_opt_out: doit être un booléen'),
    );
  });

  it('edits a draft: the fields given change, null clears an option, an empty body is refused', async () => {
    const tenant = await createTenant(t);
    const [group, other] = [await newGroup(tenant), await newGroup(tenant)];
    const draft = (await create(tenant, { name: 'A', message: 'x', group_ids: [group], webhook_url: 'http://127.0.0.1:8080/h' }).expect(201)).body.data;

    const edited = (await patch(tenant, draft.id, { name: 'B', group_ids: [other], webhook_url: null }).expect(200)).body;

    expect(edited).toMatchObject({ status: 200, message: 'succès', data: { name: 'B', message: 'x', group_ids: [other], webhook_url: null } });
    expect((await read(tenant, draft.id)).body.data).toEqual(edited.data);
    expect((await patch(tenant, draft.id, {}).expect(400)).body.errors[0]).toMatch(/^body: au moins un champ attendu/);
    expect((await patch(tenant, draft.id, { name: null }).expect(400)).body).toEqual(invalid('name: ne doit pas être null'));
  });

  it('deletes a draft, which is gone afterwards', async () => {
    const tenant = await createTenant(t);
    const draft = (await create(tenant, { name: 'A', message: 'x', group_ids: [await newGroup(tenant)] }).expect(201)).body.data;

    expect((await remove(tenant, draft.id).expect(200)).body).toEqual({ status: 200, message: 'success' });
    expect((await read(tenant, draft.id).expect(404)).body).toEqual(NOT_FOUND);
  });

  it('answers 404 Campagne non trouvée, without errors, for an unknown, malformed, foreign or other-mode id', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const draft = (await create(tenant, { name: 'A', message: 'x', group_ids: [await newGroup(tenant)] }).expect(201)).body.data;
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    const sandbox = { ...tenant, auth: `Bearer ${api_key}` };

    for (const [who, id] of [[tenant, '0193a3c2-d1e2-7f30-8a4b-5c6d7e8f9a01'], [tenant, 'nope'], [other, draft.id], [sandbox, draft.id]] as const) {
      expect((await read(who, id).expect(404)).body).toEqual(NOT_FOUND);
      expect((await patch(who, id, { name: 'B' }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await remove(who, id).expect(404)).body).toEqual(NOT_FOUND);
    }
    expect((await list(sandbox).expect(200)).body.data.items).toEqual([]);
  });

  it('lists newest first with a cursor, filtered by status', async () => {
    const tenant = await createTenant(t);
    const group = await newGroup(tenant);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(tenant, { name: `C${i}`, message: 'x', group_ids: [group] }).expect(201)).body.data.id);

    const first = (await list(tenant, '?limit=2').expect(200)).body.data;
    const second = (await list(tenant, `?limit=2&cursor=${first.next_cursor}`).expect(200)).body.data;

    expect([...first.items, ...second.items].map((item: { id: string }) => item.id)).toEqual(ids.reverse());
    expect(second.has_more).toBe(false);
    expect((await list(tenant, '?status=done').expect(200)).body.data.items).toEqual([]);
    expect((await list(tenant, '?status=draft&limit=1').expect(200)).body.data.items).toHaveLength(1);
    expect((await list(tenant, '?status=lost').expect(400)).body).toEqual(invalid('status: doit valoir draft, scheduled, running, done ou cancelled'));
    expect((await list(tenant, `?status=draft&cursor=${first.next_cursor}`).expect(400)).body).toEqual(invalid('cursor: curseur invalide'));
  });
});
