import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Response } from 'supertest';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { freePort, runCli, startServer, type ServerProcess } from './support/processes.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { checkedFetch } from './support/openapi-answers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BODY_LIMIT = 2048;
const oversized = () => smsBody('+2250707070707', { application_name: 'x'.repeat(2 * BODY_LIMIT) });

describe('HTTP hardening', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: String(BODY_LIMIT), RATE_LIMIT_PER_MINUTE: '0' });
    tenant = await createTenant(t);
  });
  afterAll(() => t?.close());

  const post = (path: string) => t.http().post(path).set('Authorization', tenant.auth);

  const answers: Array<[name: string, call: () => Promise<Response>, status: number]> = [
    ['an API answer', () => t.http().get('/v1/account').set('Authorization', tenant.auth), 200],
    ['a 401', () => t.http().get('/v1/account'), 401],
    ['a 400', () => post('/v1/otp/verify').send({}), 400],
    ['a 404 of an unknown route', () => t.http().get('/v1/nothing-here').set('Authorization', tenant.auth), 404],
    ['a 404 of a URL the router cannot decode', () => t.http().get('/v1/group/%E0%A4%A').set('Authorization', tenant.auth), 404],
    ['a 413', () => post('/v1/otp/send').send(oversized()), 413],
    ['malformed JSON', () => post('/v1/otp/send').set('Content-Type', 'application/json').send('{"channel": "SMS",'), 400],
    ['the Swagger UI page', () => t.http().get('/docs'), 200],
    ['the OpenAPI document', () => t.http().get('/docs-json'), 200],
    ['a health check', () => t.http().get('/health'), 200],
  ];

  describe('security headers', () => {
    it.each(answers)('are set on %s', async (_, call, status) => {
      const res = await call();

      expect(res.status).toBe(status);
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
        'content-security-policy': expect.stringContaining("default-src 'self'"),
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('let Swagger UI load only its own scripts: no inline script on /docs', async () => {
      const res = await t.http().get('/docs');

      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toMatch(/\ssrc="\.\/docs\/[\w.-]+\.js"/);
    });
  });

  describe('x-request-id', () => {
    it.each(answers)('is set on %s', async (_, call, status) => {
      const res = await call();

      expect(res.status).toBe(status);
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('echoes a well-formed incoming X-Request-Id, on a success and on an error', async () => {
      const ok = await t.http().get('/v1/account').set('Authorization', tenant.auth).set('X-Request-Id', 'gateway-7f3a.retry:2_b');
      const tooLarge = await post('/v1/otp/send').set('X-Request-Id', 'gateway-7f3a-413').send(oversized());

      expect([ok.status, ok.headers['x-request-id']]).toEqual([200, 'gateway-7f3a.retry:2_b']);
      expect([tooLarge.status, tooLarge.headers['x-request-id']]).toEqual([413, 'gateway-7f3a-413']);
    });

    it.each([
      ['with spaces', 'my request 1'],
      ['of 100 characters', 'r'.repeat(100)],
    ])('replaces an incoming X-Request-Id %s by a generated one', async (_, given) => {
      const res = await t.http().get('/v1/account').set('Authorization', tenant.auth).set('X-Request-Id', given);

      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toMatch(UUID);
    });
  });

  describe('POST /v1/otp/verify timing', () => {
    const SAMPLES = 60;
    const known = (i: number) => `+22507071${String(i).padStart(5, '0')}`;
    const unknown = (i: number) => `+22507072${String(i).padStart(5, '0')}`;
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
    };
    const timed = async (to: string, code: string): Promise<number> => {
      const started = performance.now();
      const res = await post('/v1/otp/verify').send({ to, code });
      const elapsed = performance.now() - started;
      expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] });
      return elapsed;
    };

    it('takes about as long for an unknown recipient as for a wrong code', async () => {
      const wrongCodes: string[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const res = await post('/v1/otp/send').send(smsBody(known(i)));
        expect(res.status).toBe(200);
        wrongCodes.push((res.body.data.code as string).replace(/\d/g, (digit) => String((Number(digit) + 1) % 10)));
      }

      const wrong: number[] = [];
      const absent: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        wrong.push(await timed(known(i), wrongCodes[i]));
        absent.push(await timed(unknown(i), wrongCodes[i]));
      }

      const ratio = median(absent) / median(wrong);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    });
  });
});

describe('Logs of the running service', () => {
  const SECRET_JWT = 'j'.repeat(40);
  const SECRET_OTP = 'o'.repeat(40);
  const PHONE = '+2250701234567';
  const EMAIL = 'Awa.Kone@Example.com';
  const MADE_UP_KEY = `mk_live_${'Q'.repeat(43)}`;
  const BANNER = /^Serving on http:\/\/\S+ \(Swagger UI: \S+\)$/;

  interface Call {
    id: string;
    accountId: string | null;
    route: string | null;
    status: number;
  }

  let dir: string;
  let server: ServerProcess | undefined;
  let lines: string[];
  let entries: Array<Record<string, unknown>>;
  let apiKey: string;
  let jwt: string;
  let accountId: string;
  const codes: string[] = [];
  const calls: Call[] = [];
  let unnamedId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'messaging-logs-'));
    const port = await freePort();
    const env = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://sms.example.com',
      LOG_LEVEL: 'debug',
      JWT_SECRET: SECRET_JWT,
      OTP_SECRET: SECRET_OTP,
      DB_TYPE: 'sqlite',
      DB_PATH: join(dir, 'messaging.sqlite'),
      DATA_DIR: dir,
      PORT: String(port),
      RATE_LIMIT_PER_MINUTE: '60000',
      BODY_LIMIT_BYTES: '102400',
    };
    const created = runCli(env, 'account:create', '--name', 'Log Audit', '--balance', '100').json as Record<string, string>;
    apiKey = created.api_key;
    accountId = created.account_id;
    jwt = (runCli(env, 'token:issue', '--user', created.user_id).json as Record<string, string>).token;
    server = await startServer(env);

    const call = async (
      expected: Omit<Call, 'id' | 'accountId'> & { authenticated?: boolean },
      path: string,
      init: { method?: string; bearer?: string; body?: string } = {},
    ) => {
      const id = `log-audit-${calls.length + 1}`;
      const headers: Record<string, string> = { 'X-Request-Id': id };
      if (init.bearer) headers.Authorization = `Bearer ${init.bearer}`;
      if (init.body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await checkedFetch(`http://127.0.0.1:${port}${path}`, { method: init.method ?? 'GET', headers, body: init.body });
      const body = (await res.json()) as { data?: { code?: string } };
      expect(res.status).toBe(expected.status);
      calls.push({ id, accountId: expected.authenticated === false ? null : accountId, route: expected.route, status: expected.status });
      return body;
    };
    const json = (value: object) => JSON.stringify(value);

    const sms = await call({ route: '/v1/otp/send', status: 200 }, '/v1/otp/send', {
      method: 'POST',
      bearer: apiKey,
      body: json({ channel: 'SMS', to: PHONE, message: 'Votre code ##OTP##' }),
    });
    const email = await call({ route: '/v1/otp/send', status: 200 }, '/v1/otp/send', {
      method: 'POST',
      bearer: jwt,
      body: json({ channel: 'EMAIL', to: EMAIL, message: 'Votre code ##OTP##', otp_type: 'alphanumeric' }),
    });
    codes.push(sms.data?.code ?? '', email.data?.code ?? '');
    const wrong = codes[0].replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));
    const verify = (bearer: string, to: string, code: string, status: number) =>
      call({ route: '/v1/otp/verify', status }, '/v1/otp/verify', { method: 'POST', bearer, body: json({ to, code }) });
    await verify(apiKey, PHONE, wrong, 400);
    await verify(apiKey, PHONE, codes[0], 200);
    await verify(jwt, EMAIL, 'ZZZZZZ', 400);
    await verify(jwt, EMAIL, codes[1], 200);
    await call({ route: '/v1/account', status: 200 }, '/v1/account', { bearer: jwt });
    await call({ route: '/v1/account', status: 200 }, '/v1/account', { bearer: apiKey });
    await call({ route: '/v1/account', status: 401, authenticated: false }, '/v1/account', { bearer: MADE_UP_KEY });
    await call({ route: '/v1/otp/send', status: 400 }, '/v1/otp/send', {
      method: 'POST',
      bearer: apiKey,
      body: json({ channel: 'SMS', to: PHONE, message: 'Code ##OTP##', otp_length: 9 }),
    });
    await call({ route: '/v1/otp/send', status: 400 }, '/v1/otp/send', { method: 'POST', bearer: apiKey, body: `{"to": "${PHONE}",` });
    await call({ route: '/v1/sms/out/:id', status: 404 }, '/v1/sms/out/no-such-message', { bearer: apiKey });
    await call({ route: null, status: 404, authenticated: false }, '/v1/no-such-route', { bearer: apiKey });

    const unnamed = await checkedFetch(`http://127.0.0.1:${port}/v1/account`, { headers: { Authorization: `Bearer ${apiKey}` } });
    unnamedId = unnamed.headers.get('x-request-id') ?? '';

    const written = (output: string) =>
      [`"reqId":"${unnamedId}"`, '"msg":"SMS"', '"msg":"e-mail"'].every((expected) => output.includes(expected));
    for (let waited = 0; waited < 5000 && !written(server.stdout()); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await server.stop();
    lines = `${server.stdout()}\n${server.stderr()}`.split('\n').filter((line) => line.trim() !== '');
    entries = lines.filter((line) => !BANNER.test(line)).flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every line as JSON in production, besides the start-up banner', () => {
    const notJson = lines.filter((line) => !BANNER.test(line)).filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });

    expect(lines.length).toBeGreaterThan(calls.length);
    expect(notJson).toEqual([]);
  });

  it('never writes a code, a credential or a full recipient', () => {
    const visible = lines
      .map((line) => {
        try {
          const { time: _time, pid: _pid, latencyMs: _latency, ...rest } = JSON.parse(line) as Record<string, unknown>;
          return JSON.stringify(rest);
        } catch {
          return line;
        }
      })
      .join('\n');
    const secrets = [
      ...codes,
      apiKey,
      apiKey.slice('mk_live_'.length),
      jwt,
      jwt.split('.')[2],
      MADE_UP_KEY,
      PHONE.slice(1),
      '0701234567',
      EMAIL.toLowerCase(),
    ];

    expect(codes).toEqual([expect.stringMatching(/^\d{6}$/), expect.stringMatching(/^[A-Z0-9]{6}$/)]);
    expect(secrets.filter((secret) => visible.includes(secret) || visible.toLowerCase().includes(secret.toLowerCase()))).toEqual([]);
  });

  it('writes one "request completed" line per request, with its id, account, route, status and latency', () => {
    for (const call of calls) {
      const forRequest = entries.filter((entry) => entry.reqId === call.id && entry.msg === 'request completed');
      expect(forRequest).toEqual([
        expect.objectContaining({
          reqId: call.id,
          accountId: call.accountId,
          route: call.route,
          status: call.status,
          latencyMs: expect.any(Number),
        }),
      ]);
    }
  });

  it('writes the generated id of a request without X-Request-Id, as answered in x-request-id', () => {
    expect(unnamedId).toMatch(UUID);
    expect(entries).toContainEqual(
      expect.objectContaining({ reqId: unnamedId, accountId, route: '/v1/account', status: 200, msg: 'request completed' }),
    );
  });

  it('carries the request id on every line written while serving a request', () => {
    const startup = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'PublicUrl']);
    const delivery = new Set(['OutboxWorker', 'LogSmsProvider', 'LogEmailProvider']);
    const listening = (entry: { msg?: unknown }) => String(entry.msg).startsWith('Server listening at');
    const served = entries.filter(
      (entry) => !startup.has(String(entry.context)) && !delivery.has(String(entry.context)) && !listening(entry),
    );

    expect(served.length).toBeGreaterThanOrEqual(calls.length + 1);
    expect(served.filter((entry) => typeof entry.reqId !== 'string' || entry.reqId === '')).toEqual([]);
    expect(entries.filter((entry) => delivery.has(String(entry.context))).map((entry) => entry.msg)).toEqual(
      expect.arrayContaining(['SMS', 'e-mail']),
    );
  });
});
