import { createHmac, createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const JWT_SECRET = 'auth-e2e-jwt-secret-0123456789abcdefghijklmnop';
const OTP_SECRET = 'auth-e2e-otp-secret-0123456789abcdefghijklmnop';
const UNAUTHORIZED = { status: 401, message: 'Non autorisé' };

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An attacker's RSA key pair: the service knows nothing of it. */
const attackerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const attackerPublicPem = attackerKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const attackerJwk = attackerKeys.publicKey.export({ format: 'jwk' });

type Alg = 'HS256' | 'HS384' | 'HS512' | 'RS256' | 'none';
const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/**
 * A compact JWS: `none` leaves the signature empty, HS* sign with HMAC (`secret`), RS256 with the attacker's
 * private key; `header` adds header parameters.
 */
function signJwt(
  claims: object,
  { alg = 'HS256', secret = JWT_SECRET, header = {} }: { alg?: Alg; secret?: string; header?: Record<string, unknown> } = {},
) {
  const unsigned = `${encode({ alg, typ: 'JWT', ...header })}.${encode(claims)}`;
  if (alg === 'none') return `${unsigned}.`;
  if (alg === 'RS256') return `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(attackerKeys.privateKey).toString('base64url')}`;
  return `${unsigned}.${createHmac(HMAC[alg], secret).update(unsigned).digest('base64url')}`;
}

/** A JWT whose header says `alg` but whose signature is a valid HS256 one under the service's secret. */
function relabelled(claims: object, alg: string) {
  const unsigned = `${encode({ alg, typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

const withoutClaim = (claims: Record<string, unknown>, name: string) => Object.fromEntries(Object.entries(claims).filter(([key]) => key !== name));

const claimsFor = (tenant: Tenant, extra: Record<string, unknown> = {}) => ({
  sub: tenant.userId,
  account: tenant.accountId,
  iat: nowSeconds(),
  exp: nowSeconds() + 3600,
  ...extra,
});

let phones = 0;
const nextPhone = () => `+22507${String(10_000_000 + ++phones)}`;

/** What a route needs to succeed for the tenant: an SMS of its own, a group of its own, a code to verify. */
interface Resources {
  smsId: string;
  groupId: string;
  otp: { to: string; code: string };
}

interface Route {
  name: string;
  call(t: TestApp, resources: Resources): Test;
  accepted(resources: Resources): unknown;
}

const routes: Route[] = [
  {
    name: 'POST /v1/otp/send',
    call: (t) => t.http().post('/v1/otp/send').send(smsBody(nextPhone())),
    accepted: () => ({
      status: 200,
      message: 'succès',
      data: { uniq_id: expect.any(String), code: expect.any(String), expires_at: expect.any(Number) },
    }),
  },
  {
    name: 'POST /v1/otp/verify',
    call: (t, resources) => t.http().post('/v1/otp/verify').send(resources.otp),
    accepted: (resources) => ({ status: 200, message: 'success', data: expect.objectContaining({ to: resources.otp.to }) }),
  },
  {
    name: 'GET /v1/sms/out/{id}',
    call: (t, resources) => t.http().get(`/v1/sms/out/${resources.smsId}`),
    accepted: (resources) => ({ status: 200, message: 'succès', data: expect.objectContaining({ uniq_id: resources.smsId }) }),
  },
  {
    name: 'GET /v1/group/{id}',
    call: (t, resources) => t.http().get(`/v1/group/${resources.groupId}`),
    accepted: (resources) => ({ status: 200, message: 'succès', data: expect.objectContaining({ id: resources.groupId }) }),
  },
  {
    name: 'DELETE /v1/group/{id}',
    call: (t, resources) => t.http().delete(`/v1/group/${resources.groupId}`),
    accepted: () => ({ status: 200, message: 'success' }),
  },
  {
    name: 'GET /v1/account',
    call: (t) => t.http().get('/v1/account'),
    accepted: () => ({ status: 200, message: 'OK', data: expect.objectContaining({ balance: expect.any(Number) }) }),
  },
];

interface Credentials {
  tenant: Tenant;
  other: Tenant;
  revokedKey: string;
  deletedUserKey: string;
  deletedUserToken: string;
  deletedUserId: string;
}

/** Each case builds the `Authorization` header of one refused credential; undefined sends none. */
const refused: Array<[string, (c: Credentials) => string | undefined]> = [
  ['no Authorization header', () => undefined],
  ['Basic credentials', () => `Basic ${Buffer.from('user:password').toString('base64')}`],
  ['an empty Bearer', () => 'Bearer '],
  ['a garbage Bearer', () => 'Bearer not-a-credential'],
  ['the API key without Bearer', (c) => c.tenant.apiKey],
  ['a key of the wrong shape', (c) => `Bearer ${c.tenant.apiKey.slice(0, -1)}`],
  ['an unknown well-formed key', () => `Bearer mk_live_${randomBytes(32).toString('base64url')}`],
  ['a revoked key', (c) => `Bearer ${c.revokedKey}`],
  ['a key of a deleted user', (c) => `Bearer ${c.deletedUserKey}`],
  ['a JWT signed with another secret', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { secret: `${JWT_SECRET}-other` })}`],
  ['a JWT with alg none', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'none' })}`],
  ['a JWT signed with HS512', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'HS512' })}`],
  ['an expired JWT', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }))}`],
  ['a JWT without exp', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { exp: undefined }))}`],
  ['a JWT for an unknown user', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { sub: randomUUID() }))}`],
  ['a JWT for an unknown account', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { account: randomUUID() }))}`],
  ["a JWT naming another tenant's account", (c) => `Bearer ${signJwt(claimsFor(c.tenant, { account: c.other.accountId }))}`],
  ['a JWT issued more than 60 s ahead', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { iat: nowSeconds() + 120 }))}`],
  ['a JWT issued for a deleted user', (c) => `Bearer ${c.deletedUserToken}`],
  ['a self-signed JWT for a deleted user', (c) => `Bearer ${signJwt({ ...claimsFor(c.tenant), sub: c.deletedUserId })}`],
  ['a JWT with alg none and no signature part', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'none' }).slice(0, -1)}`],
  ['a JWT with alg none and a valid HS256 signature', (c) => `Bearer ${relabelled(claimsFor(c.tenant), 'none')}`],
  ['a JWT with alg None and a valid HS256 signature', (c) => `Bearer ${relabelled(claimsFor(c.tenant), 'None')}`],
  ['a JWT with alg NONE and no signature', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'none', header: { alg: 'NONE' } })}`],
  ['a JWT signed with HS384', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'HS384' })}`],
  ['a JWT signed with RS256 by an unknown RSA key', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'RS256' })}`],
  ['a JWT signed with HS256 using an RSA public key PEM as the secret', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { secret: attackerPublicPem })}`],
  ['a JWT with exp as a string', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { exp: String(nowSeconds() + 3600) }))}`],
  ['a JWT with iat as a string far ahead', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { iat: String(nowSeconds() + 7200) }))}`],
  ['a JWT without sub', (c) => `Bearer ${signJwt(withoutClaim(claimsFor(c.tenant), 'sub'))}`],
  ['a JWT without account', (c) => `Bearer ${signJwt(withoutClaim(claimsFor(c.tenant), 'account'))}`],
  ['a JWT whose sub is not a UUID', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { sub: `${c.tenant.userId}x` }))}`],
  ['a JWT whose sub is a number', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { sub: 1 }))}`],
  ['a JWT whose sub is the upper-cased user id', (c) => `Bearer ${signJwt(claimsFor(c.tenant, { sub: c.tenant.userId.toUpperCase() }))}`],
  ["a JWT naming another tenant's user in its own account", (c) => `Bearer ${signJwt(claimsFor(c.tenant, { sub: c.other.userId }))}`],
  [
    'an RS256 JWT whose jku points to the signer',
    (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'RS256', header: { jku: 'https://attacker.example/jwks.json', kid: 'attacker' } })}`,
  ],
  [
    'an RS256 JWT whose x5u points to the signer',
    (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'RS256', header: { x5u: 'https://attacker.example/cert.pem' } })}`,
  ],
  ['an RS256 JWT that embeds its own jwk', (c) => `Bearer ${signJwt(claimsFor(c.tenant), { alg: 'RS256', header: { jwk: attackerJwk } })}`],
  [
    'an HS256 JWT whose kid names another key',
    (c) => `Bearer ${signJwt(claimsFor(c.tenant), { secret: 'attacker-secret', header: { kid: 'attacker-key' } })}`,
  ],
  [
    'an HS256 JWT whose kid points to an empty file, signed with an empty secret',
    (c) => `Bearer ${signJwt(claimsFor(c.tenant), { secret: '', header: { kid: '../../../../../../dev/null' } })}`,
  ],
  [
    'an HS256 JWT whose jku points elsewhere, signed with another secret',
    (c) => `Bearer ${signJwt(claimsFor(c.tenant), { secret: 'attacker-secret', header: { jku: 'https://attacker.example/jwks.json' } })}`,
  ],
  ['a JWT with a space inside the token', (c) => `Bearer ${signJwt(claimsFor(c.tenant)).replace('.', '. ')}`],
  ['a JWT followed by another word', (c) => `Bearer ${signJwt(claimsFor(c.tenant))} extra`],
  ['a JWT after Bearer twice', (c) => `Bearer Bearer ${signJwt(claimsFor(c.tenant))}`],
  ['an API key after Bearer twice', (c) => `Bearer Bearer ${c.tenant.apiKey}`],
  ['an API key followed by another word', (c) => `Bearer ${c.tenant.apiKey} extra`],
  ['a JWT with a fourth part', (c) => `Bearer ${signJwt(claimsFor(c.tenant))}.${'A'.repeat(8)}`],
  ['a JWT whose signature has a trailing character', (c) => `Bearer ${signJwt(claimsFor(c.tenant))}A`],
];

describe('Authentication', () => {
  let t: TestApp;
  let credentials: Credentials;
  let shared: Resources;

  async function resourcesOf(tenant: Tenant): Promise<Resources> {
    const to = nextPhone();
    const sent = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(to));
    const { id: groupId } = await t.admin.createGroup(tenant.accountId, `Clients ${to}`);
    return { smsId: sent.body.data.uniq_id, groupId, otp: { to, code: sent.body.data.code } };
  }

  beforeAll(async () => {
    t = await startTestApp({ JWT_SECRET, OTP_SECRET });
    const tenant = await createTenant(t);
    const other = await createTenant(t);

    const revoked = await t.admin.createApiKey(tenant.userId);
    await t.admin.revokeApiKey(revoked.key_id);

    const { user_id: deletedUserId } = await t.admin.createUser(tenant.accountId, 'Ancien');
    const deletedUserKey = await t.admin.createApiKey(deletedUserId);
    const deletedUserToken = await t.admin.issueToken(deletedUserId);
    await t.admin.deleteUser(deletedUserId);

    credentials = {
      tenant,
      other,
      revokedKey: revoked.api_key,
      deletedUserKey: deletedUserKey.api_key,
      deletedUserToken: deletedUserToken.token,
      deletedUserId,
    };
    shared = await resourcesOf(tenant);
  });
  afterAll(() => t?.close());

  describe.each(routes)('$name', (route) => {
    it.each(refused)('refuses %s with 401', async (_, authorization) => {
      const request = route.call(t, shared);
      const header = authorization(credentials);
      if (header !== undefined) request.set('Authorization', header);

      const res = await request;

      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('accepts a JWT issued by the service', async () => {
      const resources = await resourcesOf(credentials.tenant);
      const { token } = await t.admin.issueToken(credentials.tenant.userId);

      const res = await route.call(t, resources).set('Authorization', `Bearer ${token}`);

      expect(res.body).toEqual(route.accepted(resources));
    });

    it('accepts a JWT with HS256, sub, account, iat and exp', async () => {
      const resources = await resourcesOf(credentials.tenant);

      const res = await route.call(t, resources).set('Authorization', `Bearer ${signJwt(claimsFor(credentials.tenant))}`);

      expect(res.body).toEqual(route.accepted(resources));
    });

    it('accepts a mk_test_ key, on the records of its mode', async () => {
      const { api_key } = await t.admin.createApiKey(credentials.tenant.userId, true);
      const resources = await resourcesOf({ ...credentials.tenant, auth: `Bearer ${api_key}` });

      const res = await route.call(t, resources).set('Authorization', `Bearer ${api_key}`);

      expect(api_key).toMatch(/^mk_test_[A-Za-z0-9_-]{43}$/);
      expect(res.body).toEqual(route.accepted(resources));
    });
  });

  describe('the Bearer scheme', () => {
    it('is matched without case for a JWT', async () => {
      const { token } = await t.admin.issueToken(credentials.tenant.userId);

      const res = await t.http().get('/v1/account').set('Authorization', `bearer ${token}`);

      expect(res.body).toEqual(expect.objectContaining({ status: 200, message: 'OK' }));
    });

    it('is matched without case for an API key', async () => {
      const res = await t.http().get('/v1/account').set('Authorization', `bearer ${credentials.tenant.apiKey}`);

      expect(res.body).toEqual(expect.objectContaining({ status: 200, message: 'OK' }));
    });
  });

  describe('credentials in use', () => {
    const account = (authorization: string) => t.http().get('/v1/account').set('Authorization', authorization);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('refuses a JWT once its exp has passed, though it was accepted a moment before', async () => {
      const token = await t.admin.issueToken(credentials.tenant.userId, 2);
      const authorization = `Bearer ${token.token}`;

      const before = await account(authorization);
      await sleep(token.expires_at * 1000 - Date.now() + 50);
      const after = await account(authorization);

      expect(before.status).toBe(200);
      expect(after.body).toEqual(UNAUTHORIZED);
    });

    it('refuses a JWT in use within 5 s of its user being deleted', async () => {
      const { user_id } = await t.admin.createUser(credentials.tenant.accountId, 'Partant');
      const { token } = await t.admin.issueToken(user_id);

      const before = await account(`Bearer ${token}`);
      await t.admin.deleteUser(user_id);
      await sleep(5_100);
      const after = await account(`Bearer ${token}`);

      expect(before.status).toBe(200);
      expect(after.body).toEqual(UNAUTHORIZED);
    });

    it('refuses an API key in use within 5 s of its revocation', async () => {
      const key = await t.admin.createApiKey(credentials.tenant.userId);

      const before = await account(`Bearer ${key.api_key}`);
      await t.admin.revokeApiKey(key.key_id);
      await sleep(5_100);
      const after = await account(`Bearer ${key.api_key}`);

      expect(before.status).toBe(200);
      expect(after.body).toEqual(UNAUTHORIZED);
    });
  });

  describe.each([
    ['POST /v1/otp/send', '/v1/otp/send'],
    ['POST /v1/otp/verify', '/v1/otp/verify'],
  ])('%s without credentials', (_, path) => {
    it('answers 401 to an invalid body', async () => {
      const res = await t.http().post(path).send({ otp_length: 'six', code: 42 });

      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('answers 401 to malformed JSON', async () => {
      const res = await t.http().post(path).set('Content-Type', 'application/json').send('{"to":');

      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('answers 401 to a text/plain body', async () => {
      const res = await t.http().post(path).set('Content-Type', 'text/plain').send('to=+2250707070707');

      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('answers 401 to a body that is not an object', async () => {
      const res = await t.http().post(path).set('Content-Type', 'application/json').send('[]');

      expect(res.body).toEqual(UNAUTHORIZED);
    });
  });

  describe('public routes', () => {
    it.each(['/health', '/health/ready'])('%s answers without credentials', async (path) => {
      const res = await t.http().get(path);

      expect(res.body).toEqual({ status: 200, message: 'OK', data: expect.objectContaining({ status: 'ok' }) });
    });

    it('/health/live answers without credentials', async () => {
      const res = await t.http().get('/health/live');

      expect(res.body).toEqual({ status: 200, message: 'OK' });
    });

    it('/docs answers without credentials', async () => {
      const res = await t.http().get('/docs');

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    });

    it('/docs-json answers without credentials', async () => {
      const res = await t.http().get('/docs-json');

      expect(res.status).toBe(200);
      expect(res.body).toEqual(expect.objectContaining({ openapi: expect.stringMatching(/^3\./) }));
    });
  });
});
