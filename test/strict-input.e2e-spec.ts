import type { OpenAPIObject } from '@nestjs/swagger';
import type { Test } from 'supertest';
import { createOperator, createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { operationsOf, type ApiOperation } from './support/openapi-operations.js';
import type { Schema } from './support/schema-arbitrary.js';
import { rowCounts } from './support/table-counts.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const NOT_UTF8 = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from(' bad"}')]);

const t: TestApp = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
const operations = await operationsOf((await t.http().get('/docs-json').expect(200)).body as OpenAPIObject);
afterAll(() => t.close());

let tenant: Tenant;
let operator: string;
beforeAll(async () => {
  tenant = await createTenant(t);
  operator = await createOperator(t);
});

const withKey = (request: Test) => request.set('Authorization', tenant.auth);
const call = (operation: ApiOperation, query = '') =>
  t
    .http()
    [operation.method](`${operation.path.replace(/\{[^}]+\}/g, '0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20')}${query}`)
    .set('Authorization', operation.path.startsWith('/v1/admin/') ? operator : tenant.auth);
/** Every row count, and the balance: what a refused request leaves as it was. */
const state = async () => ({ rows: await rowCounts(t), balance: (await withKey(t.http().get('/v1/balance')).expect(200)).body.data.balance as number });

/** A property the body may not set to null, and the error null gets there. */
function nonNullable(schema: Schema): [string, string] | undefined {
  const entries = Object.entries(schema.properties ?? {});
  const optional = entries.find(([name, property]) => !(schema.required ?? []).includes(name) && !acceptsNull(property));
  if (optional) return [optional[0], `${optional[0]}: ne doit pas être null`];
  const required = entries.find(([, property]) => !acceptsNull(property));
  return required && [required[0], `${required[0]}: est obligatoire`];
}

const acceptsNull = (schema: Schema): boolean => [schema.type].flat().includes('null') || (schema.anyOf ?? []).some((alternative) => alternative.type === 'null');

const jsonBodies = operations.filter((operation) => operation.body);
const uploads = operations.filter((operation) => operation.otherBodyTypes.length > 0);
const queries = operations.filter((operation) => !operation.body && !uploads.includes(operation) && Object.keys(operation.query.properties ?? {}).length > 0);

describe('strict input, for every route of /docs-json', () => {
  it('covers every operation that takes a body or query parameters; the others take no input to get wrong', () => {
    const rest = operations.filter((operation) => !jsonBodies.includes(operation) && !uploads.includes(operation) && !queries.includes(operation));
    expect(rest.every((operation) => operation.method === 'get' && Object.keys(operation.query.properties ?? {}).length === 0)).toBe(true);
    expect(jsonBodies.length + uploads.length + queries.length + rest.length).toBe(operations.length);
    expect(jsonBodies.map((operation) => operation.method).sort()).toEqual(expect.arrayContaining(['delete', 'patch', 'post', 'put']));
  });

  describe.each(jsonBodies.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))('%s', (_, operation) => {
    it('refuses an unknown field, a null where the field is not nullable, and a body that is not UTF-8, storing nothing', async () => {
      const before = await state();

      const unknown = await call(operation).send({ zz_unknown: 1 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toContain('zz_unknown: champ inconnu');

      const field = nonNullable(operation.body!.schema);
      if (field) {
        const nulled = await call(operation).send({ [field[0]]: null });
        expect(nulled.status).toBe(400);
        expect(nulled.body.errors).toContain(field[1]);
      } else {
        expect(Object.values(operation.body!.schema.properties ?? {}).every(acceptsNull)).toBe(true);
      }

      const bytes = await call(operation)
        .set('Content-Type', 'application/json')
        // the bytes as they are, not the Buffer written as JSON
        .serialize((data) => data as string)
        .send(NOT_UTF8);
      expect(bytes.body).toEqual(invalid('body: texte non UTF-8'));

      expect(await state()).toEqual(before);
    });
  });

  describe.each(uploads.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))('%s', (_, operation) => {
    it('refuses an unknown query parameter, and a file that is not UTF-8 when asked for UTF-8, storing nothing', async () => {
      const before = await state();
      const csv = Buffer.from('phone;nom\n+2250707070701;Awa Koné\n', 'latin1');

      expect((await call(operation, '?zz_unknown=1').set('Content-Type', 'text/csv').send(csv)).body).toEqual(invalid('zz_unknown: champ inconnu'));
      expect((await call(operation, '?encoding=utf-8').set('Content-Type', 'text/csv').send(csv)).body).toEqual(invalid('body: texte non UTF-8'));

      expect(await state()).toEqual(before);
    });
  });

  describe.each(queries.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))('%s', (_, operation) => {
    it('refuses a query parameter it does not list', async () => {
      const res = await call(operation, '?zz_unknown=1');
      expect(res.status).toBe(400);
      expect(res.body.errors).toContain('zz_unknown: champ inconnu');
    });
  });
});

describe('strict input, case by case', () => {
  it('refuses a null group name with 400, where it answered 500, and leaves the group as it was', async () => {
    const group = (await withKey(t.http().post('/v1/group')).send({ name: 'VIP' }).expect(201)).body.data;

    const res = await withKey(t.http().patch(`/v1/group/${group.id}`)).send({ name: null });

    expect(res.body).toEqual(invalid('name: ne doit pas être null'));
    expect((await withKey(t.http().get(`/v1/group/${group.id}`)).expect(200)).body.data.name).toBe('VIP');
    expect((await withKey(t.http().patch(`/v1/group/${group.id}`)).send({ description: null }).expect(200)).body.data.description).toBeNull();
  });

  it.each([
    ['/v1/contact', { phone: '+2250707070701', group_ids: null }, 'group_ids: ne doit pas être null'],
    ['/v1/opt-out', { phones: ['+2250707070701'], default_country: null }, 'default_country: ne doit pas être null'],
    ['/v1/sms/send', smsBody('+2250707070701', { channel: undefined, message: 'Promo', sendAt: '2030-01-01T00:00:00Z' }), 'sendAt: champ inconnu'],
    ['/v1/otp/send', smsBody('+2250707070701', { otp_lenght: 4 }), 'otp_lenght: champ inconnu'],
    ['/v1/sms/send', { to: '+2250707070701', message: 'x', delivery_window: { days: ['mon'], from: '08:00', to: '20:00', timezone: 'UTC', foo: 1 } }, 'delivery_window.foo: champ inconnu'],
    ['/v1/contact/bulk', { contacts: [{ phone: '+2250707070701' }, { phone: '+2250707070702', x: 1 }] }, 'contacts[1].x: champ inconnu'],
  ])('POST %s %j: 400, nothing stored or debited', async (path, body, error) => {
    const before = await state();

    expect((await withKey(t.http().post(path)).send(body)).body).toEqual(invalid(error));

    expect(await state()).toEqual(before);
  });

  it('reports one error per field, from the field itself', async () => {
    const res = await withKey(t.http().post('/v1/otp/send')).send(smsBody('+2250707070701', { otp_length: 1e308 }));
    expect(res.body).toEqual(invalid('otp_length: doit être compris entre 4 et 6'));
  });

  it('reports a list item that is not text by its index', async () => {
    const res = await withKey(t.http().post('/v1/hlr')).send({ numbers: ['+2250707070701', 5] });
    expect(res.body).toEqual(invalid('numbers[1]: doit être une chaîne de caractères'));
  });

  it('answers 405 with Allow for a path served with other methods, after authentication; 404 for a path it does not serve', async () => {
    const res = await withKey(t.http().put('/v1/contact')).send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({ status: 405, message: 'methode_non_autorisee', errors: ['méthode: PUT non autorisée (GET, HEAD, POST)'] });

    expect((await withKey(t.http().post('/v1/account'))).headers.allow).toBe('GET, HEAD');
    expect((await withKey(t.http().patch('/v1/group/0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20'))).status).toBe(400);
    expect((await t.http().put('/v1/contact').send({})).body).toEqual({ status: 401, message: 'Non autorisé' });
    expect((await withKey(t.http().put('/v1/nothing-here'))).body).toEqual({ status: 404, message: 'Non trouvé' });
  });

  it('answers 415 naming the type it takes', async () => {
    const res = await withKey(t.http().post('/v1/group')).set('Content-Type', 'text/plain').send('name=VIP');
    expect(res.body).toEqual({ status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: application/json attendu'] });
  });

  it('takes no body, an empty one or {} alike on actions, and validates one with fields', async () => {
    const members = (await withKey(t.http().post('/v1/group')).send({ name: 'Lancement' }).expect(201)).body.data.id as string;
    await withKey(t.http().post(`/v1/group/${members}/contacts`)).send({ phones: ['+2250707070711'] }).expect(200);
    const draft = () => withKey(t.http().post('/v1/campaign')).send({ name: 'Soldes', message: 'Promo', group_ids: [members], send_at: inDays(2) }).expect(201);
    const [first, second, third] = [(await draft()).body.data.id, (await draft()).body.data.id, (await draft()).body.data.id];

    expect((await withKey(t.http().post(`/v1/campaign/${first}/launch`))).status).toBe(200);
    expect((await withKey(t.http().post(`/v1/campaign/${second}/launch`)).set('Content-Type', 'application/json').send('')).status).toBe(200);
    expect((await withKey(t.http().post(`/v1/campaign/${third}/launch`)).send({})).status).toBe(200);
    expect((await withKey(t.http().post(`/v1/campaign/${first}/cancel`))).status).toBe(200);
    expect((await withKey(t.http().post(`/v1/campaign/${second}/cancel`)).send({ reason: 'Erreur', extra: 1 })).body).toEqual(invalid('extra: champ inconnu'));
    expect((await withKey(t.http().post('/v1/account/webhook/secret'))).status).toBe(200);
    expect((await withKey(t.http().post('/v1/account/webhook/secret')).send({ rotate: true })).body).toEqual(invalid('rotate: champ inconnu'));
  });

  it('takes date-times with any fractional precision, kept to the millisecond', async () => {
    const at = new Date(t.clock.now().getTime() + 2 * 86_400_000);
    const precise = `${at.toISOString().slice(0, 19)}.123456789Z`;

    const list = await withKey(t.http().get(`/v1/group?created_from=${encodeURIComponent(at.toISOString().slice(0, 19))}.123456Z`));
    const sent = await withKey(t.http().post('/v1/sms/send')).send({ to: '+2250707070712', message: 'Plus tard', send_at: precise });

    expect(list.status).toBe(200);
    expect(sent.status).toBe(200);
    expect(sent.body.data.messages[0].send_at).toBe(`${at.toISOString().slice(0, 19)}.123Z`);
    expect((await withKey(t.http().get('/v1/group?created_from=2026-11-26T20:00Z'))).body).toEqual(invalid('created_from: date ISO 8601 avec fuseau attendue'));
  });

  const inDays = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();
});
