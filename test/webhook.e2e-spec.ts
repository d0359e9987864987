import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SANDBOX_RECIPIENTS } from '../src/delivery/providers/sandbox.providers.js';
import { WEBHOOK_RESOLVER, type Resolver } from '../src/webhook/url-guard.js';
import { WEBHOOK_QUEUE } from '../src/webhook/webhook-events.js';
import { WebhookHousekeeping } from '../src/webhook/webhook.housekeeping.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver, type ReceivedHook } from './support/webhook-receiver.js';

/** The documented algorithm, by hand: base64 HMAC-SHA256 under the secret's bytes over `{id}.{timestamp}.{body}`, any of the signatures. */
function handVerified(secret: string, hook: ReceivedHook): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${hook.headers['webhook-id']}.${hook.headers['webhook-timestamp']}.${hook.body}`;
  const expected = Buffer.from(createHmac('sha256', key).update(signed).digest('base64'));
  const age = Math.abs(Date.now() / 1000 - Number(hook.headers['webhook-timestamp']));
  return age < 300 && String(hook.headers['webhook-signature']).split(' ').some((each) => {
    const [version, signature] = each.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The standardwebhooks verifier, as a receiver would use it: throws unless a signature by `secret` is valid. */
const verified = (secret: string, hook: ReceivedHook) =>
  new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as Record<string, unknown>;

describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  async function sandboxTenant(): Promise<Tenant> {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    return { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };
  }

  const putWebhook = (tenant: Tenant, body: Record<string, unknown>) =>
    t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send(body);

  async function subscribe(tenant: Tenant, path: string, events = ['sms.sent', 'sms.delivered', 'sms.undelivered', 'sms.failed']) {
    const res = await putWebhook(tenant, { url: receiver.url(path), events });
    expect(res.status).toBe(200);
    return res.body.data.secret as string;
  }

  async function send(tenant: Tenant, to: string, messageUrl?: string): Promise<string> {
    const uniqId = await t.withDeliveryPaused(async () => {
      const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(to));
      expect(res.status).toBe(200);
      const id = res.body.data.uniq_id as string;
      if (messageUrl) await t.database.run((sql) => sql.run('UPDATE message_out SET webhook_url = ? WHERE uniq_id = ?', [messageUrl, id]));
      return id;
    });
    await t.deliver();
    return uniqId;
  }

  const hooksAt = (path: string, count: number) => until(() => receiver.at(path), (hooks) => hooks.length >= count);
  const smsOut = async (tenant: Tenant, id: string) =>
    (await t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth).expect(200)).body.data as Record<string, unknown>;
  const attempts = (eventId: string) =>
    t.database.run((sql) =>
      sql.all<{ n: number; status_code: number | null; error: string | null; url: string }>(
        'SELECT n, status_code, error, url FROM webhook_attempt WHERE event_id = ? ORDER BY id',
        [eventId],
      ),
    );
  const eventRow = (id: string) =>
    t.database.run((sql) => sql.get<{ state: string; attempts: number; available_at: string | Date | null }>('SELECT state, attempts, available_at FROM webhook_event WHERE id = ?', [id]));
  const dueIn = async (id: string) => {
    const row = await eventRow(id);
    return new Date(`${String(row!.available_at instanceof Date ? row!.available_at.toISOString() : row!.available_at).replace(' ', 'T').replace(/Z?$/, 'Z')}`).getTime() - t.clock.now().getTime();
  };

  it('signs every event so that the standardwebhooks verifier and the documented algorithm accept it, in order of sequence', async () => {
    const tenant = await sandboxTenant();
    const secret = await subscribe(tenant, '/signed');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const uniqId = await send(tenant, SANDBOX_RECIPIENTS.delivered);

    const hooks = await hooksAt('/signed', 2);
    for (const hook of hooks) {
      expect(verified(secret, hook)).toBeTruthy();
      expect(handVerified(secret, hook)).toBe(true);
      expect(hook.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'MessagingOtp-Webhooks/1',
        'webhook-id': JSON.parse(hook.body).id,
      });
      expect(hook.headers['webhook-event']).toBe(JSON.parse(hook.body).type);
    }
    const bodies = hooks.map((hook) => JSON.parse(hook.body)).sort((a, b) => a.data.sequence - b.data.sequence);
    expect(bodies.map((body) => [body.type, body.data.sequence])).toEqual([
      ['sms.sent', 1],
      ['sms.delivered', 2],
    ]);
    expect(bodies[1]).toEqual({
      id: expect.any(String),
      type: 'sms.delivered',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      api_version: 'v1',
      data: {
        uniq_id: uniqId,
        lot: expect.any(String),
        external_id: null,
        campaign_id: null,
        to: SANDBOX_RECIPIENTS.delivered,
        sender: 'DEMO',
        status: 'delivered',
        provider_status: 'DELIVRD',
        error_code: null,
        mccmnc: null,
        page: '1',
        amount: 0,
        send_at: expect.any(String),
        done_at: expect.any(String),
        status_at: expect.any(String),
        sequence: 2,
        sandbox: true,
      },
    });

    const sms = await until(() => smsOut(tenant, uniqId), (read) => read.webhook_response !== null);
    expect(JSON.parse(sms.webhook_response as string)).toEqual({
      event_id: expect.any(String),
      type: expect.stringMatching(/^sms\./),
      attempt: 1,
      status_code: 200,
      duration_ms: expect.any(Number),
      at: expect.any(String),
      error: null,
      exhausted: false,
      body: 'ok',
    });
    expect((sms.webhook_response as string).length).toBeLessThanOrEqual(1024);
  });

  it("sends a message's events to its own webhook_url only, and nothing for an event type the account did not choose", async () => {
    const tenant = await sandboxTenant();
    await subscribe(tenant, '/account-only', ['sms.failed']);
    await send(tenant, SANDBOX_RECIPIENTS.undelivered, receiver.url('/own'));
    await send(tenant, '+2250707070708');
    const own = await hooksAt('/own', 2);
    expect(own.map((hook) => JSON.parse(hook.body).type).sort()).toEqual(['sms.sent', 'sms.undelivered']);
    await send(tenant, SANDBOX_RECIPIENTS.failed);
    const failed = await hooksAt('/account-only', 1);
    expect(JSON.parse(failed[0]!.body)).toMatchObject({ type: 'sms.failed', data: { status: 'failed', provider_status: 'REJECTD', sequence: 1 } });
    await t.drain(WEBHOOK_QUEUE);
    expect(receiver.at('/account-only')).toHaveLength(1);
  });

  it('retries on the schedule with the same webhook-id, and records every attempt: a receiver that fails 3 times then answers 200', async () => {
    const tenant = await sandboxTenant();
    receiver.on('/flaky', (_, response, count) => response.writeHead(count <= 3 ? 500 : 200).end(count <= 3 ? 'down' : 'ok'));
    await subscribe(tenant, '/flaky', ['sms.sent']);
    const uniqId = await send(tenant, '+2250707070709');
    const [first] = await hooksAt('/flaky', 1);
    const eventId = JSON.parse(first!.body).id as string;
    await until(() => eventRow(eventId), (row) => row?.attempts === 1 && row.state === 'pending');

    for (const [n, delay] of [[2, 5], [3, 300], [4, 1800]] as const) {
      const wait = await dueIn(eventId);
      expect(wait).toBeGreaterThan(delay * 900 - 1000);
      expect(wait).toBeLessThanOrEqual(delay * 1100);
      await t.drain(WEBHOOK_QUEUE);
      expect(receiver.at('/flaky')).toHaveLength(n - 1);
      t.clock.advance(delay * 1.1 + 1);
      await t.drain(WEBHOOK_QUEUE);
      await hooksAt('/flaky', n);
    }
    await until(() => eventRow(eventId), (row) => row?.state === 'delivered');
    expect(new Set(receiver.at('/flaky').map((hook) => hook.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect((await attempts(eventId)).map((row) => [Number(row.n), Number(row.status_code)])).toEqual([[1, 500], [2, 500], [3, 500], [4, 200]]);
    expect(JSON.parse((await smsOut(tenant, uniqId)).webhook_response as string)).toMatchObject({ event_id: eventId, attempt: 4, status_code: 200, exhausted: false });
  });

  it('stops at 410 Gone, honours Retry-After, gives up on a receiver that hangs past the timeout, and follows no redirect', async () => {
    const tenant = await sandboxTenant();
    receiver.on('/gone', (_, response) => response.writeHead(410).end('gone'));
    receiver.on('/busy', (_, response) => response.writeHead(503, { 'retry-after': '3600' }).end());
    receiver.on('/hang', () => undefined);
    receiver.on('/redirect', (_, response) => response.writeHead(302, { location: receiver.url('/target') }).end());
    const cases = ['/gone', '/busy', '/hang', '/redirect'];
    const ids: Record<string, string> = {};
    for (const path of cases) ids[path] = await send(tenant, '+2250707070710', receiver.url(path));
    await Promise.all(cases.map((path) => hooksAt(path, 1)));
    const responses: Record<string, Record<string, unknown>> = {};
    for (const path of cases) {
      const sms = await until(() => smsOut(tenant, ids[path]!), (read) => read.webhook_response !== null, 10_000);
      responses[path] = JSON.parse(sms.webhook_response as string);
    }
    expect(responses['/gone']).toMatchObject({ attempt: 1, status_code: 410, error: null, exhausted: true, body: 'gone' });
    expect(await eventRow(responses['/gone']!.event_id as string)).toMatchObject({ state: 'gone', available_at: null });
    expect(responses['/busy']).toMatchObject({ attempt: 1, status_code: 503, exhausted: false });
    expect(await dueIn(responses['/busy']!.event_id as string)).toBeGreaterThan(3_600_000 - 5_000);
    expect(responses['/hang']).toMatchObject({ attempt: 1, status_code: null, error: 'timeout', exhausted: false });
    expect(responses['/redirect']).toMatchObject({ attempt: 1, status_code: 302, error: null, exhausted: false });
    expect(receiver.at('/target')).toHaveLength(0);

    t.clock.advance(3600 * 1.1);
    await t.drain(WEBHOOK_QUEUE);
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('exhausts an event after the last attempt, and disables an account webhook that failed every attempt for 5 days', async () => {
    const tenant = await sandboxTenant();
    receiver.on('/down', (_, response) => response.writeHead(500).end());
    await subscribe(tenant, '/down', ['sms.sent']);
    await send(tenant, '+2250707070711');
    const [first] = await hooksAt('/down', 1);
    const eventId = JSON.parse(first!.body).id as string;
    for (let n = 2; n <= 8; n++) {
      await until(() => eventRow(eventId), (row) => row?.attempts === n - 1 && row.state === 'pending');
      t.clock.advance(Math.ceil((await dueIn(eventId)) / 1000) + 1);
      await t.drain(WEBHOOK_QUEUE);
    }
    await until(() => eventRow(eventId), (row) => row?.state === 'exhausted');
    expect(await attempts(eventId)).toHaveLength(8);
    // 27.6 hours of failures so far: still enabled
    expect((await t.http().get('/v1/account/webhook').set('Authorization', tenant.auth)).body.data.disabled_at).toBeNull();

    t.clock.advance(4 * 86_400);
    await send(tenant, '+2250707070712');
    await hooksAt('/down', 9);
    const config = await until(
      async () => (await t.http().get('/v1/account/webhook').set('Authorization', tenant.auth)).body,
      (body) => body.data.disabled_at !== null,
    );
    expect(config).toEqual({
      status: 200,
      message: 'succès',
      data: { url: receiver.url('/down'), events: ['sms.sent'], disabled_at: expect.any(String), secret: null },
    });
    const before = await t.database.run((sql) => sql.get<{ count: number }>('SELECT COUNT(*) AS count FROM webhook_event WHERE account_id = ?', [tenant.accountId]));
    await send(tenant, '+2250707070713');
    const after = await t.database.run((sql) => sql.get<{ count: number }>('SELECT COUNT(*) AS count FROM webhook_event WHERE account_id = ?', [tenant.accountId]));
    expect(Number(after!.count)).toBe(Number(before!.count));

    const reenabled = await putWebhook(tenant, { url: receiver.url('/down'), events: ['sms.sent'] });
    expect(reenabled.body.data).toMatchObject({ disabled_at: null, secret: null });
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one alone', async () => {
    const tenant = await sandboxTenant();
    const old = await subscribe(tenant, '/rotated', ['sms.sent']);
    const rotated = await t.http().post('/v1/account/webhook/secret').set('Authorization', tenant.auth).expect(200);
    expect(rotated.body).toEqual({ status: 200, message: 'succès', data: { secret: expect.stringMatching(/^whsec_/) } });
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(old);

    await send(tenant, '+2250707070714');
    const [during] = await hooksAt('/rotated', 1);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(fresh, during!)).toBeTruthy();
    expect(verified(old, during!)).toBeTruthy();
    expect(handVerified(old, during!) && handVerified(fresh, during!)).toBe(true);

    t.clock.advance(24 * 3600 + 1);
    await send(tenant, '+2250707070715');
    const [, after] = await hooksAt('/rotated', 2);
    expect(String(after!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verified(fresh, after!)).toBeTruthy();
    expect(() => verified(old, after!)).toThrow('No matching signature');
  });

  it("resends a message's latest event with the same webhook-id; 404 for another account's or an unknown message, 409 without events", async () => {
    const tenant = await sandboxTenant();
    const other = await sandboxTenant();
    await subscribe(tenant, '/resent', ['sms.sent']);
    const uniqId = await send(tenant, '+2250707070716');
    const [first] = await hooksAt('/resent', 1);
    await until(() => smsOut(tenant, uniqId), (read) => read.webhook_response !== null);

    const res = await t.http().post(`/v1/sms/out/${uniqId}/webhook/resend`).set('Authorization', tenant.auth);
    expect(res.body).toEqual({ status: 200, message: 'succès', data: { event_id: JSON.parse(first!.body).id } });
    const [, again] = await hooksAt('/resent', 2);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);

    for (const [auth, id] of [[other.auth, uniqId], [tenant.auth, '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10'], [tenant.auth, 'nope']] as const) {
      expect((await t.http().post(`/v1/sms/out/${id}/webhook/resend`).set('Authorization', auth)).body).toEqual({
        status: 404,
        message: 'Non trouvé',
        errors: ['id: aucun SMS pour cet identifiant ou ce lot'],
      });
    }
    const silent = await send(other, '+2250707070717');
    expect((await t.http().post(`/v1/sms/out/${silent}/webhook/resend`).set('Authorization', other.auth)).body).toEqual({
      status: 409,
      message: 'transition_invalide',
      errors: ["id: ce SMS n'a encore aucun évènement webhook"],
    });
  });

  it("keeps each account's webhook to itself, and answers its settings in the envelope", async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    expect((await t.http().get('/v1/account/webhook').set('Authorization', tenant.auth)).body).toEqual({
      status: 200,
      message: 'succès',
      data: { url: null, events: [], disabled_at: null, secret: null },
    });
    const first = await putWebhook(tenant, { url: receiver.url('/mine'), events: ['sms.delivered', 'balance.low'] });
    expect(first.body).toEqual({
      status: 200,
      message: 'succès',
      data: { url: receiver.url('/mine'), events: ['sms.delivered', 'balance.low'], disabled_at: null, secret: expect.stringMatching(/^whsec_/) },
    });
    expect((await putWebhook(tenant, { url: null })).body.data).toEqual({ url: null, events: [], disabled_at: null, secret: null });
    expect((await t.http().get('/v1/account/webhook').set('Authorization', other.auth)).body.data).toEqual({
      url: null,
      events: [],
      disabled_at: null,
      secret: null,
    });
  });

  it('purges settled events and attempts after 30 days, and keeps events still waiting for a retry', async () => {
    const tenant = await sandboxTenant();
    receiver.on('/old-ok', (_, response) => response.writeHead(200).end());
    receiver.on('/old-down', (_, response) => response.writeHead(500).end());
    const settled = await send(tenant, '+2250707070730', receiver.url('/old-ok'));
    const waiting = await send(tenant, '+2250707070731', receiver.url('/old-down'));
    await Promise.all([hooksAt('/old-ok', 1), hooksAt('/old-down', 1)]);
    const eventsOf = (id: string) => t.database.run((sql) => sql.all<{ id: string; state: string }>('SELECT id, state FROM webhook_event WHERE subject_id = ?', [id]));
    await until(() => eventsOf(waiting), (rows) => rows.length === 1 && rows[0]!.state === 'pending');
    await until(() => eventsOf(settled), (rows) => rows.length === 1 && rows[0]!.state === 'delivered');
    const [kept] = await eventsOf(waiting);

    t.clock.advance(31 * 86_400);
    await t.app.get(WebhookHousekeeping).purge();
    expect(await eventsOf(settled)).toEqual([]);
    expect(await eventsOf(waiting)).toEqual([{ id: kept!.id, state: 'pending' }]);
    expect(await attempts(kept!.id)).toEqual([]);
  });

  it.each([
    [{}, ['url: est obligatoire']],
    [{ url: 12 }, ['url: doit être une chaîne de caractères']],
    [{ url: 'ftp://example.com/x' }, ['url: doit être une URL http ou https']],
    [{ url: 'https://u:p@example.com/x' }, ["url: ne doit pas contenir d'identifiants"]],
    [{ url: null, events: 'sms.sent' }, ['events: doit être une liste']],
    [{ url: null, events: ['sms.sent', 'sms.lost'] }, ["events[1]: type d'évènement inconnu"]],
    [{ url: null, events: ['sms.sent', 'sms.sent'] }, ['events: contient un type en double']],
  ])('refuses %j with French field errors', async (body, errors) => {
    const tenant = await createTenant(t);
    expect((await putWebhook(tenant, body)).body).toEqual({ status: 400, message: 'erreur_de_validation', errors });
  });
});

/** The SSRF guard with private addresses refused (the default): DNS answers come from the test. */
describe('webhook SSRF guard', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const lookups: string[] = [];
  const resolver: Resolver = async (hostname) => {
    lookups.push(hostname);
    const seen = lookups.filter((name) => name === hostname).length;
    const answers: Record<string, string> = {
      'public.test': '93.184.215.14',
      'private.test': '127.0.0.1',
      // public when the URL is saved, then rebound to the loopback for the attempt
      'rebind.test': seen === 1 ? '93.184.215.14' : '127.0.0.1',
    };
    const address = answers[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_TIMEOUT_MS: '1000' }, [[WEBHOOK_RESOLVER, resolver]]);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it.each([
    ['http://127.0.0.1:{port}/hook'],
    ['http://[::1]:{port}/hook'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://10.0.0.1/hook'],
    ['http://[::ffff:127.0.0.1]:{port}/hook'],
    ['http://0x7f.1:{port}/hook'],
    ['http://private.test:{port}/hook'],
  ])('refuses %s when it is saved, without connecting', async (template) => {
    const tenant = await createTenant(t);
    const url = template.replace('{port}', String(receiver.port));
    const res = await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url, events: ['sms.sent'] });
    expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['url: adresse privée ou réservée refusée'] });
    expect(receiver.connections).toBe(0);
  });

  it('refuses, at the attempt, a name that resolved publicly when saved and privately afterwards, and a private message URL: no connection is made', async () => {
    const tenant = await createTenant(t);
    const saved = await t
      .http()
      .put('/v1/account/webhook')
      .set('Authorization', tenant.auth)
      .send({ url: `http://rebind.test:${receiver.port}/hook`, events: ['sms.sent'] });
    expect(saved.status).toBe(200);

    const send = async (messageUrl?: string) => {
      const id = await t.withDeliveryPaused(async () => {
        const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070720'));
        const uniqId = res.body.data.uniq_id as string;
        if (messageUrl) await t.database.run((sql) => sql.run('UPDATE message_out SET webhook_url = ? WHERE uniq_id = ?', [messageUrl, uniqId]));
        return uniqId;
      });
      await t.deliver();
      return id;
    };
    const rebound = await send();
    const direct = await send(`http://[::ffff:7f00:1]:${receiver.port}/hook`);
    for (const id of [rebound, direct]) {
      await t.drain(WEBHOOK_QUEUE);
      const sms = await until(
        async () => (await t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth)).body.data as Record<string, unknown>,
        (read) => read.webhook_response !== null,
      );
      expect(JSON.parse(sms.webhook_response as string)).toMatchObject({
        attempt: 1,
        status_code: null,
        error: 'adresse_bloquee',
        exhausted: false,
        body: 'adresse privée ou réservée refusée',
      });
    }
    expect(lookups.filter((name) => name === 'rebind.test').length).toBeGreaterThanOrEqual(2);
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('accepts a name that resolves to public addresses', async () => {
    const tenant = await createTenant(t);
    const res = await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: 'https://public.test/hook', events: [] });
    expect(res.body.data).toMatchObject({ url: 'https://public.test/hook', events: [] });
  });
});
