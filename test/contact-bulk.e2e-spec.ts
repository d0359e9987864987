import { randomUUID } from 'node:crypto';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PHONE_INVALID = 'numéro de téléphone invalide (format international attendu, par exemple +2250707070707)';
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const phoneOf = (n: number) => `+22501${String(100_000_000 + n).slice(1)}`;

describe('/v1/contact/bulk', () => {
  let t: TestApp;
  let tenant: Tenant;

  const bulk = (body: unknown, headers: Record<string, string> = {}, auth = tenant.auth) =>
    t.http().post('/v1/contact/bulk').set('Authorization', auth).set(headers).send(body as object);
  const byPhone = async (phone: string, auth = tenant.auth) =>
    (await t.http().get('/v1/contact').query({ q: phone }).set('Authorization', auth)).body.data.items as Array<Record<string, unknown>>;

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
  });
  afterAll(() => t?.close());

  it('writes the valid contacts and reports the others by index', async () => {
    const res = await bulk({
      contacts: [
        { phone: phoneOf(1), name: 'Awa' },
        { phone: '+22507' },
        'not an object',
        { phone: phoneOf(2), email: 'nope', language: 'de' },
        { phone: ' 00' + phoneOf(1).slice(1), name: 'Awa encore' },
        { phone: '01 01 00 00 00', name: 'National' },
      ],
      default_country: 'CI',
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 200,
      message: 'succès',
      data: {
        created: 2,
        updated: 0,
        skipped: 1,
        errors: [
          { index: 1, errors: [`phone: ${PHONE_INVALID}`] },
          { index: 2, errors: ['contact: doit être un objet JSON'] },
          { index: 3, errors: expect.arrayContaining(['email: adresse e-mail invalide', 'language: doit valoir fr, en, es ou pt']) },
        ],
      },
    });
    expect((await byPhone(phoneOf(1)))[0]).toEqual(expect.objectContaining({ name: 'Awa' }));
    expect((await byPhone('2250101000000'))[0]).toEqual(expect.objectContaining({ phone: '+2250101000000', name: 'National' }));
  });

  it('skips the phones the account has, or updates them with the fields given, attributes merged', async () => {
    await bulk({ contacts: [{ phone: phoneOf(10), name: 'Koffi', email: 'koffi@example.com', attributes: { ville: 'Abidjan', vip: 'oui' } }] });

    const skipped = await bulk({ contacts: [{ phone: phoneOf(10), name: 'Ignoré' }, { phone: phoneOf(11) }] });
    expect(skipped.body.data).toEqual({ created: 1, updated: 0, skipped: 1, errors: [] });
    expect((await byPhone(phoneOf(10)))[0]).toEqual(expect.objectContaining({ name: 'Koffi' }));

    const updated = await bulk({ contacts: [{ phone: phoneOf(10), name: 'Koffi Yao', attributes: { ville: 'Bouaké' } }], on_duplicate: 'update' });
    expect(updated.body.data).toEqual({ created: 0, updated: 1, skipped: 0, errors: [] });
    expect((await byPhone(phoneOf(10)))[0]).toEqual(
      expect.objectContaining({ name: 'Koffi Yao', email: 'koffi@example.com', attributes: { ville: 'Bouaké', vip: 'oui' } }),
    );
  });

  it('reports an update that would give a contact more than 20 attributes', async () => {
    await bulk({ contacts: [{ phone: phoneOf(20), attributes: Object.fromEntries(Array.from({ length: 15 }, (_, n) => [`a${n}`, 'x'])) }] });

    const res = await bulk({
      contacts: [{ phone: phoneOf(20), attributes: Object.fromEntries(Array.from({ length: 10 }, (_, n) => [`b${n}`, 'y'])) }, { phone: phoneOf(21) }],
      on_duplicate: 'update',
    });

    expect(res.body.data).toEqual({ created: 1, updated: 0, skipped: 0, errors: [{ index: 0, errors: ['attributes: 20 clés au plus avec celles du contact existant'] }] });
  });

  it('puts every contact of the request in the groups given, once', async () => {
    const group = (await t.http().post('/v1/group').set('Authorization', tenant.auth).send({ name: 'Import JSON' })).body.data.id;
    await bulk({ contacts: [{ phone: phoneOf(30) }] });

    const res = await bulk({ contacts: [{ phone: phoneOf(30) }, { phone: phoneOf(31) }, { phone: phoneOf(31) }], group_ids: [group] });

    expect(res.body.data).toEqual({ created: 1, updated: 0, skipped: 2, errors: [] });
    expect((await t.http().get(`/v1/group/${group}`).set('Authorization', tenant.auth)).body.data.contact_count).toBe(2);
  });

  it('takes 1,000 contacts in a body larger than the default limit', async () => {
    const contacts = Array.from({ length: 1000 }, (_, n) => ({ phone: phoneOf(1000 + n), name: `Contact ${n} ${'x'.repeat(80)}` }));
    expect(JSON.stringify({ contacts }).length).toBeGreaterThan(102_400);

    const res = await bulk({ contacts });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ created: 1000, updated: 0, skipped: 0, errors: [] });
  });

  it.each<[string, unknown, string[]]>([
    ['no contacts', {}, ['contacts: est obligatoire']],
    ['an empty list', { contacts: [] }, ['contacts: doit être une liste de 1 à 1000 contacts']],
    ['1,001 contacts', { contacts: Array.from({ length: 1001 }, () => ({ phone: phoneOf(1) })) }, ['contacts: doit être une liste de 1 à 1000 contacts']],
    ['an unknown on_duplicate', { contacts: [{ phone: phoneOf(1) }], on_duplicate: 'merge' }, ['on_duplicate: doit valoir skip ou update']],
    ['bad group_ids', { contacts: [{ phone: phoneOf(1) }], group_ids: 'x' }, ['group_ids: doit être une liste de 1 à 100 identifiants (UUID)']],
    ['a group of no account', { contacts: [{ phone: phoneOf(1) }], group_ids: [randomUUID()] }, ['group_ids[0]: groupe non trouvé']],
  ])('answers 400 for %s', async (_case, body, errors) => {
    expect((await bulk(body)).body).toEqual(invalid(...errors));
  });

  it('answers 413 for a body over the bulk limit', async () => {
    const attributes = Object.fromEntries(['a', 'b', 'c', 'd'].map((key) => [key, key.repeat(255)]));
    const contacts = Array.from({ length: 1000 }, (_, n) => ({ phone: phoneOf(n), name: 'x'.repeat(100), attributes }));
    expect(JSON.stringify({ contacts }).length).toBeGreaterThan(1_048_576);

    const res = await bulk({ contacts });

    expect(res.status).toBe(413);
    expect(res.body.status).toBe(413);
  });

  it('replays the answer of a repeated Idempotency-Key without writing again', async () => {
    const body = { contacts: [{ phone: phoneOf(40) }, { phone: phoneOf(41) }] };
    const first = await bulk(body, { 'Idempotency-Key': 'bulk-1' });
    const again = await bulk(body, { 'Idempotency-Key': 'bulk-1' });
    const other = await bulk({ contacts: [{ phone: phoneOf(42) }] }, { 'Idempotency-Key': 'bulk-1' });

    expect(first.body.data).toEqual({ created: 2, updated: 0, skipped: 0, errors: [] });
    expect(again.body).toEqual(first.body);
    expect(other.status).toBe(422);
    expect(await byPhone(phoneOf(42))).toEqual([]);
  });

  it('creates each phone once under 20 concurrent requests carrying it', async () => {
    const phones = [phoneOf(50), phoneOf(51), phoneOf(52)];

    const answers = await Promise.all(Array.from({ length: 20 }, () => bulk({ contacts: phones.map((phone) => ({ phone })) })));

    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(answers.reduce((sum, res) => sum + res.body.data.created, 0)).toBe(3);
    expect(answers.reduce((sum, res) => sum + res.body.data.skipped, 0)).toBe(57);
    for (const phone of phones) expect(await byPhone(phone)).toHaveLength(1);
  });
});
