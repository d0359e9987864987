import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const A_GROUP_ID = '0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20';

/** The whole answer: its status, a JSON content type and exactly this body. */
function expectAnswer(res: Response, body: { status: number; message: string; errors?: string[] }) {
  expect(res.status).toBe(body.status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual(body);
}

describe('Error envelope', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: '2048' });
    tenant = await createTenant(t);
  });
  afterAll(() => t?.close());

  const post = (path: string) => t.http().post(path).set('Authorization', tenant.auth);

  describe('unknown routes', () => {
    it('answers 404 Non trouvé to an unknown route', async () => {
      const res = await t.http().get('/v1/nothing-here').set('Authorization', tenant.auth);

      expectAnswer(res, { status: 404, message: 'Non trouvé' });
    });

    it('answers 404 Non trouvé to an unknown route without credentials', async () => {
      const res = await t.http().get('/v2/account');

      expectAnswer(res, { status: 404, message: 'Non trouvé' });
    });

    it.each([
      ['PUT', '/v1/account', 'GET, HEAD'],
      ['POST', `/v1/group/${A_GROUP_ID}`, 'GET, HEAD, PATCH, DELETE'],
      ['PUT', '/v1/otp/verify', 'GET, HEAD, POST'],
      ['DELETE', '/v1/sms/out/abc', 'GET, HEAD'],
    ])('answers 405 methode_non_autorisee with Allow to %s %s, a path served with other methods', async (method, path, allow) => {
      const res = await t
        .http()
        [method.toLowerCase() as 'put' | 'post' | 'get' | 'delete'](path)
        .set('Authorization', tenant.auth);

      expectAnswer(res, { status: 405, message: 'methode_non_autorisee', errors: [`méthode: ${method} non autorisée (${allow})`] });
      expect(res.headers.allow).toBe(allow);
    });
  });

  describe('malformed URLs', () => {
    const LONG_ID = 'a'.repeat(101);

    it('answers an over-long group id with 404 Groupe non trouvé', async () => {
      const res = await t.http().get(`/v1/group/${LONG_ID}`).set('Authorization', tenant.auth);

      expectAnswer(res, { status: 404, message: 'Groupe non trouvé' });
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('answers an over-long SMS id with 404 Non trouvé', async () => {
      const res = await t.http().get(`/v1/sms/out/${LONG_ID}`).set('Authorization', tenant.auth);

      expectAnswer(res, { status: 404, message: 'Non trouvé', errors: [expect.any(String)] });
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('answers a URL the router cannot decode as an unknown route, with a request id', async () => {
      const res = await t.http().get('/v1/group/%E0%A4%A').set('Authorization', tenant.auth);

      expectAnswer(res, { status: 404, message: 'Non trouvé' });
      expect(res.headers['x-request-id']).toMatch(UUID);
    });
  });

  describe('unreadable bodies', () => {
    it.each(['/v1/otp/send', '/v1/otp/verify'])('answers 400 JSON invalide to malformed JSON on %s', async (path) => {
      const res = await post(path).set('Content-Type', 'application/json').send('{"channel": "SMS",');

      expectAnswer(res, { status: 400, message: 'erreur_de_validation', errors: ['body: JSON invalide'] });
    });

    it('takes an empty application/json body for no body', async () => {
      const res = await post('/v1/otp/send').set('Content-Type', 'application/json').send('');

      expectAnswer(res, { status: 400, message: 'erreur_de_validation', errors: ['body: doit être un objet JSON'] });
    });

    it('answers 400 with each required field to an empty JSON object', async () => {
      const res = await post('/v1/otp/send').send({});

      expectAnswer(res, {
        status: 400,
        message: 'erreur_de_validation',
        errors: ['channel: est obligatoire', 'to: est obligatoire', 'message: est obligatoire'],
      });
    });

    it.each([
      ['an array', '[{"channel": "SMS"}]'],
      ['a string', '"SMS"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('answers 400 doit être un objet JSON to %s', async (_, body) => {
      const res = await post('/v1/otp/send').set('Content-Type', 'application/json').send(body);

      expectAnswer(res, { status: 400, message: 'erreur_de_validation', errors: ['body: doit être un objet JSON'] });
    });

    it('answers 400 doit être un objet JSON to a POST without a body', async () => {
      const res = await post('/v1/otp/verify');

      expectAnswer(res, { status: 400, message: 'erreur_de_validation', errors: ['body: doit être un objet JSON'] });
    });

    it('answers 413 to a body over BODY_LIMIT_BYTES', async () => {
      const body = smsBody('+2250707070707', { application_name: 'x'.repeat(3 * 1024) });

      const res = await post('/v1/otp/send').send(body);

      expectAnswer(res, { status: 413, message: 'requete_trop_volumineuse' });
    });

    it('accepts a body just under BODY_LIMIT_BYTES', async () => {
      const body = smsBody('+2250707070708', { message: `Code ##OTP## ${'x'.repeat(1580)}` });

      const res = await post('/v1/otp/send').send(body);

      expect(res.body).toEqual({ status: 200, message: 'succès', data: expect.any(Object) });
    });

    it.each([
      ['text/plain', 'channel=SMS&to=+2250707070707'],
      ['application/x-www-form-urlencoded', 'channel=SMS&to=%2B2250707070707&message=%23%23OTP%23%23'],
      ['application/xml', '<otp><channel>SMS</channel></otp>'],
    ])('answers 415 to a %s body', async (type, body) => {
      const res = await post('/v1/otp/send').set('Content-Type', type).send(body);

      expectAnswer(res, { status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: application/json attendu'] });
    });

    it('answers 415 to a text/plain body on /v1/otp/verify', async () => {
      const res = await post('/v1/otp/verify').set('Content-Type', 'text/plain').send('to=+2250707070707&code=123456');

      expectAnswer(res, { status: 415, message: 'type_de_contenu_non_supporte', errors: ['content-type: application/json attendu'] });
    });
  });

  describe('x-request-id', () => {
    it.each([
      ['a success', () => t.http().get('/v1/account').set('Authorization', tenant.auth), 200],
      ['a 401', () => t.http().get('/v1/account'), 401],
      ['a 404', () => t.http().get('/v1/nothing-here'), 404],
      ['a 400', () => post('/v1/otp/verify').send({}), 400],
      ['a 415', () => post('/v1/otp/verify').set('Content-Type', 'text/plain').send('x'), 415],
      ['a health check', () => t.http().get('/health/live'), 200],
      ['the OpenAPI document', () => t.http().get('/docs-json'), 200],
    ])('is set on %s', async (_, call, status) => {
      const res = await call();

      expect(res.status).toBe(status);
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('is a new identifier for each request', async () => {
      const first = await t.http().get('/health/live');
      const second = await t.http().get('/health/live');

      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('echoes a well-formed incoming X-Request-Id', async () => {
      const res = await t.http().get('/v1/account').set('Authorization', tenant.auth).set('X-Request-Id', 'client-42.retry:1_a');

      expect(res.headers['x-request-id']).toBe('client-42.retry:1_a');
    });

    it('echoes a well-formed incoming X-Request-Id on an error', async () => {
      const res = await t.http().get('/v1/account').set('X-Request-Id', 'trace-0001');

      expect(res.status).toBe(401);
      expect(res.headers['x-request-id']).toBe('trace-0001');
    });

    it.each([
      ['with spaces and markup', 'abc <script>'],
      ['longer than 64 characters', 'a'.repeat(65)],
    ])('replaces an incoming X-Request-Id %s', async (_, given) => {
      const res = await t.http().get('/health/live').set('X-Request-Id', given);

      expect(res.headers['x-request-id']).toMatch(UUID);
    });
  });
});

describe('Error envelope of internal failures', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
    await t.database.transaction(async (sql) => {
      for (const table of ['contact_group', 'otp', 'message_out']) await sql.run(`ALTER TABLE ${table} RENAME TO ${table}_gone`);
    });
  });
  afterAll(() => t?.close());

  it.each([
    ['GET /v1/group/{id}', () => t.http().get(`/v1/group/${A_GROUP_ID}`)],
    ['DELETE /v1/group/{id}', () => t.http().delete(`/v1/group/${A_GROUP_ID}`)],
    ['GET /v1/sms/out/{id}', () => t.http().get(`/v1/sms/out/${A_GROUP_ID}`)],
    ['POST /v1/otp/verify', () => t.http().post('/v1/otp/verify').send({ to: '+2250707070707', code: '123456' })],
  ])('answers %s with 500 erreur_interne and nothing else', async (_, call) => {
    const res = await call().set('Authorization', tenant.auth);

    expectAnswer(res, { status: 500, message: 'erreur_interne' });
  });

  it('answers POST /v1/otp/send with 500 erreur_application and nothing else', async () => {
    const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070707'));

    expectAnswer(res, { status: 500, message: 'erreur_application' });
  });

  it('keeps a request id on a 500', async () => {
    const res = await t.http().get(`/v1/group/${A_GROUP_ID}`).set('Authorization', tenant.auth).set('X-Request-Id', 'incident-7');

    expect(res.status).toBe(500);
    expect(res.headers['x-request-id']).toBe('incident-7');
  });
});

describe('Error envelope when the database is unreachable', () => {
  let t: TestApp;
  let warm: Tenant;
  let cold: Tenant;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    warm = await createTenant(t);
    cold = await createTenant(t);
    token = (await t.admin.issueToken(cold.userId)).token;
    await t.http().get('/v1/account').set('Authorization', warm.auth).expect(200);
    await t.app.get(DataSource).destroy();
  });
  afterAll(() => t?.close());

  it('answers 503 service_indisponible when the route cannot read', async () => {
    const res = await t.http().get('/v1/account').set('Authorization', warm.auth);

    expectAnswer(res, { status: 503, message: 'service_indisponible' });
  });

  it('answers 503, not 401, when an API key cannot be looked up', async () => {
    const res = await t.http().get('/v1/account').set('Authorization', cold.auth);

    expectAnswer(res, { status: 503, message: 'service_indisponible' });
  });

  it('answers 503, not 401, when the user of a JWT cannot be looked up', async () => {
    const res = await t.http().get(`/v1/group/${A_GROUP_ID}`).set('Authorization', `Bearer ${token}`);

    expectAnswer(res, { status: 503, message: 'service_indisponible' });
  });

  it('answers 503 on POST /v1/otp/send', async () => {
    const res = await t.http().post('/v1/otp/send').set('Authorization', warm.auth).send(smsBody('+2250707070707'));

    expectAnswer(res, { status: 503, message: 'service_indisponible' });
  });

  it('still answers 401 to a request without credentials', async () => {
    const res = await t.http().get('/v1/account');

    expectAnswer(res, { status: 401, message: 'Non autorisé' });
  });
});
