import type { Response } from 'supertest';
import { fingerprintOf } from '../src/idempotency/fingerprint.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TO = '+2250707070707';
const KEY = 'order-4711-otp';
const DAY_SECONDS = 24 * 3600;

describe('POST /v1/otp/send with Idempotency-Key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const send = (tenant: Tenant, body: object, key?: string) => {
    const req = t.http().post('/v1/otp/send').set('Authorization', tenant.auth);
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
  };
  const countOf = async (table: 'otp' | 'message_out' | 'outbox' | 'idempotency_record', tenant: Tenant): Promise<number> => {
    const row = await t.database.run((sql) =>
      sql.get<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${table} WHERE account_id = ?`, [tenant.accountId]),
    );
    return Number(row?.count);
  };
  const debitsOf = async (tenant: Tenant): Promise<number[]> => {
    const rows = await t.database.run((sql) =>
      sql.all<{ amount: number | string }>("SELECT amount FROM ledger_entry WHERE account_id = ? AND kind = 'debit'", [tenant.accountId]),
    );
    return rows.map((row) => Number(row.amount));
  };
  const balanceOf = async (tenant: Tenant): Promise<number> =>
    (await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance;
  const inFlightMark = (tenant: Tenant, key: string, fingerprint: string, lockedFor: number) => {
    const now = t.clock.now();
    return t.database.run((sql) =>
      sql.insert('idempotency_record', {
        account_id: tenant.accountId,
        idem_key: key,
        fingerprint,
        state: 'in_flight',
        status_code: null,
        response: null,
        locked_until: new Date(now.getTime() + lockedFor * 1000),
        expires_at: new Date(now.getTime() + DAY_SECONDS * 1000),
        created_at: now,
      }),
    );
  };
  const success = { status: 200, message: 'succès', data: { uniq_id: expect.any(String), code: expect.any(String), expires_at: expect.any(Number) } };

  it('replays the first 200 exactly, and sends, stores and debits only once', async () => {
    const tenant = await createTenant(t);

    const [first, second] = await t.withDeliveryPaused(async () => {
      const answers = [await send(tenant, smsBody(TO), KEY), await send(tenant, smsBody(TO), KEY)];
      expect(await countOf('outbox', tenant)).toBe(1);
      return answers;
    });

    expect(first.body).toEqual(success);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await countOf('otp', tenant)).toBe(1);
    expect(await countOf('message_out', tenant)).toBe(1);
    expect(await debitsOf(tenant)).toEqual([-250]);
    expect(await balanceOf(tenant)).toBe(997.5);
  });

  it('treats a body with its keys in another order as the same body', async () => {
    const tenant = await createTenant(t);
    const first = await send(tenant, { channel: 'SMS', to: TO, message: 'Code ##OTP##', otp_length: 4 }, KEY);

    const second = await send(tenant, { otp_length: 4, message: 'Code ##OTP##', to: TO, channel: 'SMS' }, KEY);

    expect(first.body).toEqual(success);
    expect(second.body).toEqual(first.body);
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('refuses the same key with another body with 422 cle_idempotence_reutilisee', async () => {
    const tenant = await createTenant(t);
    await send(tenant, smsBody(TO), KEY);

    const res = await send(tenant, smsBody(TO, { otp_length: 4 }), KEY);

    expect(res.status).toBe(422);
    expect(res.body).toEqual({ status: 422, message: 'cle_idempotence_reutilisee', errors: [expect.any(String)] });
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('refuses a key first used on another route, without replaying that answer or acting', async () => {
    const tenant = await createTenant(t);
    await send(tenant, smsBody(TO), KEY).expect(200);

    const res = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).set('Idempotency-Key', KEY).send({ to: TO, message: 'Bonjour' });

    expect(res.body).toEqual({ status: 422, message: 'cle_idempotence_reutilisee', errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'] });
    expect(await countOf('message_out', tenant)).toBe(1);
    expect(await debitsOf(tenant)).toEqual([-250]);
  });

  it('replays a 400 as it was, even once the request would now succeed', async () => {
    const tenant = await createTenant(t);
    const body = smsBody(TO, { sender: 'NEWBRAND' });
    const first = await send(tenant, body, KEY);
    expect(first.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['sender: expéditeur inconnu'] });
    await t.admin.createSender(tenant.accountId, 'NEWBRAND');

    const replay = await send(tenant, body, KEY);
    const fresh = await send(tenant, body, 'another-key');

    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(first.body);
    expect(fresh.body).toEqual(success);
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('leaves the key unused when the body is refused by validation', async () => {
    const tenant = await createTenant(t);
    const refused = await send(tenant, smsBody(TO, { otp_length: 9 }), KEY);
    expect(refused.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['otp_length: doit être compris entre 4 et 6'] });
    expect(await countOf('idempotency_record', tenant)).toBe(0);

    const sent = await send(tenant, smsBody(TO), KEY);

    expect(sent.body).toEqual(success);
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('refuses a malformed key before reading the body', async () => {
    const tenant = await createTenant(t);
    const res = await send(tenant, smsBody(TO, { otp_length: 9 }), 'é');

    expect(res.body).toEqual({
      status: 400,
      message: 'erreur_de_validation',
      errors: ['Idempotency-Key: doit faire de 1 à 255 caractères ASCII imprimables'],
    });
    expect(await countOf('otp', tenant)).toBe(0);
  });

  it('replays a 402 as it was, even after the balance was credited', async () => {
    const tenant = await createTenant(t, { balance: '1.00' });
    const first = await send(tenant, smsBody(TO), KEY);
    expect(first.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 2.5, balance: 1 } });
    await t.admin.credit(tenant.accountId, '10');

    const replay = await send(tenant, smsBody(TO), KEY);

    expect(replay.status).toBe(402);
    expect(replay.body).toEqual(first.body);
    expect(await countOf('otp', tenant)).toBe(0);
    expect(await balanceOf(tenant)).toBe(11);
  });

  it('does not keep a 429: once the send window has passed, the same key sends', async () => {
    const tenant = await createTenant(t);
    for (let i = 0; i < 5; i++) expect((await send(tenant, smsBody(TO))).status).toBe(200);

    const refused = await send(tenant, smsBody(TO), KEY);
    expect(refused.body).toEqual({ status: 429, message: 'trop_de_requetes', errors: [expect.any(String)] });
    t.clock.advance(900);
    const retried = await send(tenant, smsBody(TO), KEY);

    expect(retried.body).toEqual(success);
    expect(await countOf('otp', tenant)).toBe(6);
  });

  it('keeps keys per account: another account may use the same key', async () => {
    const first = await createTenant(t);
    const second = await createTenant(t);

    const a = await send(first, smsBody(TO), KEY);
    const b = await send(second, smsBody(TO), KEY);

    expect(a.body).toEqual(success);
    expect(b.body).toEqual(success);
    expect(b.body.data.uniq_id).not.toBe(a.body.data.uniq_id);
    expect(await countOf('otp', first)).toBe(1);
    expect(await countOf('otp', second)).toBe(1);
  });

  it('replays the answer to another credential of the same account', async () => {
    const tenant = await createTenant(t);
    const jwt = { ...tenant, auth: `Bearer ${(await t.admin.issueToken(tenant.userId)).token}` };

    const first = await send(tenant, smsBody(TO), KEY);
    const second = await send(jwt, smsBody(TO), KEY);

    expect(first.body).toEqual(success);
    expect(second.body).toEqual(first.body);
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('tells keys apart by case', async () => {
    const tenant = await createTenant(t);

    const lower = await send(tenant, smsBody(TO), 'order-abc');
    const upper = await send(tenant, smsBody(TO), 'ORDER-ABC');

    expect(lower.body).toEqual(success);
    expect(upper.body).toEqual(success);
    expect(upper.body.data.uniq_id).not.toBe(lower.body.data.uniq_id);
    expect(await countOf('otp', tenant)).toBe(2);
  });

  it('answers two simultaneous requests with one key with one send: the other gets 409 or its replay', async () => {
    const tenant = await createTenant(t);

    const answers = await Promise.all([send(tenant, smsBody(TO), KEY), send(tenant, smsBody(TO), KEY)]);

    const sent = answers.filter((res) => res.status === 200);
    const waiting = answers.filter((res) => res.status === 409);
    expect(sent.length + waiting.length).toBe(2);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const res of sent) expect(res.body).toEqual(sent[0].body);
    for (const res of waiting) expect(res.body).toEqual({ status: 409, message: 'requete_en_cours', errors: [expect.any(String)] });
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('answers 409 requete_en_cours while the first request with the key is in flight', async () => {
    const tenant = await createTenant(t);
    const body = smsBody(TO);
    await inFlightMark(tenant, KEY, fingerprintOf('POST /v1/otp/send', { channel: body.channel, message: body.message, to: body.to }), 60);

    const res = await send(tenant, { to: TO, message: body.message, channel: 'SMS' }, KEY);

    expect(res.status).toBe(409);
    expect(res.body).toEqual({ status: 409, message: 'requete_en_cours', errors: [expect.any(String)] });
    expect(await countOf('otp', tenant)).toBe(0);
  });

  it('takes over an in-flight mark older than 60 s', async () => {
    const tenant = await createTenant(t);
    const body = smsBody(TO);
    await inFlightMark(tenant, KEY, fingerprintOf('POST /v1/otp/send', { channel: body.channel, message: body.message, to: body.to }), 60);
    t.clock.advance(61);

    const res = await send(tenant, body, KEY);
    const replay = await send(tenant, body, KEY);

    expect(res.body).toEqual(success);
    expect(replay.body).toEqual(res.body);
    expect(await countOf('otp', tenant)).toBe(1);
  });

  it('acts as a new key after 24 h', async () => {
    const tenant = await createTenant(t);
    const first = await send(tenant, smsBody(TO), KEY);
    t.clock.advance(DAY_SECONDS + 1);

    const second = await send(tenant, smsBody(TO), KEY);

    expect(second.body).toEqual(success);
    expect(second.body.data.uniq_id).not.toBe(first.body.data.uniq_id);
    expect(await countOf('otp', tenant)).toBe(2);
  });

  it.each([
    ['of 256 characters', 'k'.repeat(256)],
    ['with a non-ASCII character', 'clé-4711'],
    ['with a control character', 'order\t4711'],
    ['that is empty', ''],
  ])('refuses a key %s with 400', async (_, key) => {
    const tenant = await createTenant(t);

    const res = await send(tenant, smsBody(TO), key);

    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: 'erreur_de_validation', errors: [expect.stringMatching(/^Idempotency-Key: /)] });
    expect(await countOf('otp', tenant)).toBe(0);
  });

  it('accepts a key of 255 printable ASCII characters', async () => {
    const tenant = await createTenant(t);
    const key = ' !"#$%&\'()*+,-./0123456789:;<=>?@[\\]^_`{|}~'.padEnd(255, 'Z');

    const first = await send(tenant, smsBody(TO), key);
    const replay = await send(tenant, smsBody(TO), key);

    expect(first.body).toEqual(success);
    expect(replay.body).toEqual(first.body);
  });

  it('stores the answer sealed: neither its code nor its id can be read in the record', async () => {
    const tenant = await createTenant(t);
    const res = await send(tenant, emailBody('jane@example.com', { otp_type: 'alphanumeric' }), KEY);

    const record = await t.database.run((sql) =>
      sql.get<{ state: string; status_code: number | string; response: string }>(
        'SELECT state, status_code, response FROM idempotency_record WHERE account_id = ? AND idem_key = ?',
        [tenant.accountId, KEY],
      ),
    );

    expect(res.body).toEqual(success);
    expect({ state: record?.state, status: Number(record?.status_code) }).toEqual({ state: 'done', status: 200 });
    expect(record?.response).toEqual(expect.any(String));
    expect(record?.response).not.toContain(res.body.data.code);
    expect(record?.response).not.toContain(res.body.data.uniq_id);
    expect(record?.response).not.toContain('succès');
  });

  it('leaves a request without the header as it was: every send acts', async () => {
    const tenant = await createTenant(t);

    const first = await send(tenant, smsBody(TO));
    const second = await send(tenant, smsBody(TO));

    expect(first.body).toEqual(success);
    expect(second.body).toEqual(success);
    expect(second.body.data.uniq_id).not.toBe(first.body.data.uniq_id);
    expect(await countOf('otp', tenant)).toBe(2);
    expect(await countOf('idempotency_record', tenant)).toBe(0);
  });

  it('is documented in the OpenAPI document: the header and the 409 and 422 answers', async () => {
    const res = await t.http().get('/docs-json');
    const operation = res.body.paths['/v1/otp/send'].post as {
      parameters: Array<Record<string, unknown>>;
      responses: Record<string, { content: { 'application/json': { schema: { example: unknown } } } }>;
    };

    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false, schema: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 255 }) }),
    );
    expect(operation.responses['409'].content['application/json'].schema.example).toEqual({
      status: 409,
      message: 'requete_en_cours',
      errors: [expect.any(String)],
    });
    expect(operation.responses['422'].content['application/json'].schema.example).toEqual({
      status: 422,
      message: 'cle_idempotence_reutilisee',
      errors: [expect.any(String)],
    });
  });

  it('sends once for 30 simultaneous requests with one key', async () => {
    const tenant = await createTenant(t);

    const answers: Response[] = await Promise.all(Array.from({ length: 30 }, () => send(tenant, smsBody(TO), KEY)));

    const sent = answers.filter((res) => res.status === 200);
    expect(answers.map((res) => res.status).filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const res of sent) expect(res.body).toEqual(sent[0].body);
    expect(await countOf('otp', tenant)).toBe(1);
    expect(await debitsOf(tenant)).toEqual([-250]);
    expect(await balanceOf(tenant)).toBe(997.5);
  });
});
