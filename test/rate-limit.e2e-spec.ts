import type { Response } from 'supertest';
import { CredentialRateLimitGuard } from '../src/rate-limit/credential-rate-limit.guard.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const LIMIT = 5;
const TO = '+2250707070707';
const MADE_UP_KEY = `mk_live_${'A'.repeat(43)}`;

/** Moves each clock just past the start of the next one-minute window, so that a test's requests share one window. */
function startNextWindow(...apps: TestApp[]): void {
  const now = apps[0].clock.now().getTime();
  const seconds = (60_000 - (now % 60_000) + 5) / 1000;
  for (const app of apps) app.clock.advance(seconds);
}

function expectRateLimited(res: Response): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ status: 429, message: 'trop_de_requetes', errors: [expect.any(String)] });
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe(CredentialRateLimitGuard.name, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => t?.close());
  beforeEach(() => startNextWindow(t));

  const account = (auth: string) => t.http().get('/v1/account').set('Authorization', auth);
  const verify = (auth: string) => t.http().post('/v1/otp/verify').set('Authorization', auth).send({ to: TO, code: '000000' });
  const spend = async (auth: string, requests: number) => {
    for (let i = 0; i < requests; i++) expect((await account(auth)).status).toBe(200);
  };

  it('refuses the 6th request of a credential within the minute with 429 trop_de_requetes and Retry-After', async () => {
    const tenant = await createTenant(t);
    await spend(tenant.auth, LIMIT);

    expectRateLimited(await account(tenant.auth));
  });

  it('counts simultaneous requests one by one: exactly 5 of 20 pass', async () => {
    const tenant = await createTenant(t);

    const answers = await Promise.all(Array.from({ length: 4 * LIMIT }, () => account(tenant.auth)));

    expect(answers.filter((res) => res.status === 200)).toHaveLength(LIMIT);
    for (const res of answers.filter((answer) => answer.status !== 200)) expectRateLimited(res);
  });

  it('counts the requests of a credential across routes', async () => {
    const tenant = await createTenant(t);
    await spend(tenant.auth, 3);
    for (let i = 0; i < 2; i++) expect((await verify(tenant.auth)).status).toBe(400);

    expectRateLimited(await verify(tenant.auth));
    expectRateLimited(await account(tenant.auth));
  });

  it('gives every credential of an account a count of its own', async () => {
    const tenant = await createTenant(t);
    const jwt = `Bearer ${(await t.admin.issueToken(tenant.userId)).token}`;
    const secondKey = `Bearer ${(await t.admin.createApiKey(tenant.userId)).api_key}`;
    await spend(tenant.auth, LIMIT);
    expectRateLimited(await account(tenant.auth));

    await spend(jwt, LIMIT);
    await spend(secondKey, LIMIT);
    expectRateLimited(await account(jwt));
  });

  it('allows the credential again in the next window', async () => {
    const tenant = await createTenant(t);
    await spend(tenant.auth, LIMIT);
    expectRateLimited(await account(tenant.auth));

    t.clock.advance(60);
    const res = await account(tenant.auth);

    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('does not count unauthenticated requests, which get 401 and leave the budget whole', async () => {
    const tenant = await createTenant(t);

    const refused = [
      ...(await Promise.all(Array.from({ length: 4 }, () => account(`Bearer ${MADE_UP_KEY}`)))),
      ...(await Promise.all(Array.from({ length: 4 }, () => t.http().get('/v1/account')))),
    ];

    for (const res of refused) expect(res.body).toEqual({ status: 401, message: 'Non autorisé' });
    await spend(tenant.auth, LIMIT);
    expectRateLimited(await account(tenant.auth));
  });

  it('reports the limit and the requests left in x-ratelimit headers', async () => {
    const tenant = await createTenant(t);

    const answers: Response[] = [];
    for (let i = 0; i <= LIMIT; i++) answers.push(await account(tenant.auth));

    expect(answers.map((res) => [res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']])).toEqual([
      [200, '5', '4'],
      [200, '5', '3'],
      [200, '5', '2'],
      [200, '5', '1'],
      [200, '5', '0'],
      [429, '5', '0'],
    ]);
    for (const res of answers) {
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
  });

  it('does not limit public routes, even with an exhausted credential', async () => {
    const tenant = await createTenant(t);
    await spend(tenant.auth, LIMIT);
    expectRateLimited(await account(tenant.auth));

    const answers = await Promise.all(
      Array.from({ length: 2 * LIMIT }, (_, i) => (i % 2 ? t.http().get('/health') : t.http().get('/health').set('Authorization', tenant.auth))),
    );

    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

describe(`${CredentialRateLimitGuard.name} with RATE_LIMIT_PER_MINUTE=0`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => t?.close());

  it('limits nothing', async () => {
    const tenant = await createTenant(t);
    startNextWindow(t);

    const answers: Response[] = [];
    for (let i = 0; i < 4 * LIMIT; i++) answers.push(await t.http().get('/v1/account').set('Authorization', tenant.auth));

    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 4 * LIMIT }, () => 200));
    expect(answers[answers.length - 1].headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe(`${CredentialRateLimitGuard.name} across instances`, () => {
  let first: TestApp;
  let second: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    first = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    const sameDatabase: Record<string, string> =
      process.env.DB_TYPE === 'mysql'
        ? { DB_NAME: process.env.DB_NAME ?? '' }
        : { DB_PATH: process.env.DB_PATH ?? '', DATA_DIR: process.env.DATA_DIR ?? '' };
    second = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT), ...sameDatabase });
    tenant = await createTenant(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const on = (app: TestApp) => app.http().get('/v1/account').set('Authorization', tenant.auth);

  it('shares one count between two instances on one database', async () => {
    startNextWindow(first, second);

    const statuses: number[] = [];
    for (const app of [first, second, first, second, first]) statuses.push((await on(app)).status);

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expectRateLimited(await on(second));
    expectRateLimited(await on(first));
  });

  it('lets exactly 5 of 20 simultaneous requests split over both instances through', async () => {
    startNextWindow(first, second);

    const answers = await Promise.all(Array.from({ length: 4 * LIMIT }, (_, i) => on(i % 2 ? first : second)));

    expect(answers.filter((res) => res.status === 200)).toHaveLength(LIMIT);
    for (const res of answers.filter((answer) => answer.status !== 200)) expectRateLimited(res);
  });
});
