import fc from 'fast-check';
import type { Response, Test } from 'supertest';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { tableNames } from './support/table-counts.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Runs per property (about 1,900 requests in all, 25 to 40 s on SQLite). */
const RUNS = 100;
/** Runs of the properties that upload 1 MB bodies. */
const BIG_BODY_RUNS = 8;

/** `FC_SEED=<seed>` replays a failure that fast-check reported with its seed. */
fc.configureGlobal({ numRuns: RUNS, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) });

/** Limits that would otherwise answer 429 before the behaviour under test. */
const LIMITS_OFF = {
  RATE_LIMIT_PER_MINUTE: '0',
  OTP_MAX_SENDS_PER_RECIPIENT: '1000000',
  OTP_MAX_FAILED_VERIFICATIONS: '1000000',
  OTP_MAX_ATTEMPTS: '100',
};
const DEFAULT_BODY_LIMIT = 102_400;
const ONE_MB = 1024 * 1024;
const UNAUTHORIZED = { status: 401, message: 'Non autorisé' };
const ENVELOPE_KEYS = ['status', 'message', 'data', 'errors'];
/** A stack frame (`at fn (file:1:2)`) or a database driver's words. */
const LEAKS = [/\bat [^\s"]+ \(?[^\s"]*:\d+:\d+/, /\n\s+at /, /SQLITE/, /ER_/, /QueryFailedError/];

const tally = { requests: 0, serverErrors: 0, byStatus: new Map<number, number>() };

/** Sends the request and checks what every answer keeps, whatever the input: no 5xx, the envelope, no internals. */
async function answer(request: Test): Promise<Response> {
  tally.requests++;
  const res = await request;
  if (res.status >= 500) tally.serverErrors++;
  tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);

  expect(res.status).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const envelope = JSON.parse(res.text) as Record<string, unknown>;
  expect(envelope).toEqual(expect.objectContaining({ status: res.status, message: expect.stringMatching(/\S/) }));
  expect(Object.keys(envelope).filter((key) => !ENVELOPE_KEYS.includes(key))).toEqual([]);
  if ('errors' in envelope) {
    expect(Array.isArray(envelope.errors)).toBe(true);
    expect(envelope.errors).toEqual((envelope.errors as unknown[]).map(() => expect.any(String)));
  }
  const ours = res.status === 200 ? JSON.stringify({ message: envelope.message }) : res.text;
  for (const leak of LEAKS) expect(ours).not.toMatch(leak);
  return res;
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'null';
const objectText = (entries: Array<[string, string]>) => `{${entries.map(([key, value]) => `${json(key)}:${value}`).join(',')}}`;

/** Percent-encodes every code point, lone surrogates included (as the bytes WTF-8 gives them). */
function encodeSegment(segment: string): string {
  return Array.from(segment, (char) => {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(char);
  }).join('');
}

const INJECTIONS = [
  "' OR 1=1 --",
  '"; DROP TABLE otp; --',
  "'; DROP TABLE ledger_entry; --",
  "1' UNION SELECT key_hash, 1 FROM api_key --",
  "admin'/*",
  '\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{7*7}}',
  '%s%s%s%n',
  '../../../../etc/passwd',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  '##OTP##',
  '\u0000',
  '\r\nX-Injected: 1',
];
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u061c', '\u200e', '\u200f'];
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const RTL = ['مرحبا', 'שלום', 'ܫܠܡܐ', '\u202eevil\u202c'];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
const controlChar = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constantFrom(0x7f, 0x85, 0x2028, 0x2029))
  .map((unit) => String.fromCharCode(unit));
const hostileUnit = fc.oneof(
  loneSurrogate,
  controlChar,
  fc.constantFrom(...INVISIBLE, ...BIDI, ...RTL, ...INJECTIONS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/** Control characters, RTL and zero-width characters, lone surrogates, injections, any code point. */
const hostileString = fc.oneof(
  fc.string({ unit: hostileUnit, maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...INJECTIONS),
);
/** Lone surrogates replaced: a database stores UTF-8, so only well-formed text comes back as it was sent. */
const wellFormed = hostileString.map((text) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
);
const phone = fc.integer({ min: 0, max: 999_999 }).map((n) => `+2250707${String(n).padStart(6, '0')}`);
const email = fc.integer({ min: 0, max: 999_999 }).map((n) => `hostile${n}@example.com`);

/** JSON text rather than values: numbers JSON.stringify cannot write (-0, 1e999, 30 digits) and keys it would drop. */
const RAW_NUMBERS = ['-0', '0', '4', '6', '60', '3600', '1e308', '-1e308', '1e999', '-1e999', '5e-324', '1e-400', '4.0', '6.5', '-6', '123456789012345678901234567890'];
const POLLUTION = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"prototype":{"polluted":"yes"}}'];
const leafText = fc.oneof(hostileString.map(json), fc.constantFrom(...RAW_NUMBERS, 'true', 'false', 'null', '[]', '{}', '""'));
const nested = (depth: number, array: boolean, leaf: string) =>
  array ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}` : `${'{"to":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
const nestedText = fc
  .tuple(fc.oneof(fc.constant(50), fc.integer({ min: 1, max: 60 })), fc.boolean(), leafText)
  .map(([depth, array, leaf]) => nested(depth, array, leaf));
const hostileValueText = fc.oneof(
  leafText,
  fc.double().map(json),
  fc.jsonValue({ maxDepth: 3 }).map(json),
  fc.array(hostileString, { maxLength: 4 }).map(json),
  nestedText,
  fc.constantFrom(...POLLUTION),
);
const hostileKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', ''), hostileString);

const SEND_FIELDS = ['channel', 'sender', 'to', 'message', 'otp_type', 'otp_length', 'otp_expiry', 'use_local_number', 'application_name', 'language'];
const VERIFY_FIELDS = ['to', 'code'];
/** Values a client could mean, right or wrong, so that some records get past validation. */
const plausible: Record<string, fc.Arbitrary<unknown>> = {
  channel: fc.constantFrom('SMS', 'EMAIL', 'sms', 'FAX', ''),
  sender: fc.constantFrom('DEMO', 'demo', 'Demo App', 'UNKNOWN', '1234567890123456'),
  to: fc.oneof(phone, email, fc.constantFrom('+33612345678', '00225 07 07 07 07 07', '2250707070707', '+999', 'nobody')),
  message: fc.oneof(fc.constantFrom('Code ##OTP##', '##OTP##', 'sans code', '##OTP## ##OTP##'), hostileString.map((text) => `${text}##OTP##`)),
  otp_type: fc.constantFrom('numeric', 'alphanumeric', 'NUMERIC', 'hex'),
  otp_length: fc.constantFrom(3, 4, 5, 6, 7),
  otp_expiry: fc.constantFrom(59, 60, 300, 3600, 3601),
  use_local_number: fc.boolean(),
  application_name: fc.oneof(fc.constantFrom('App', ''), hostileString),
  language: fc.constantFrom('fr', 'en', 'es', 'pt', 'de'),
  code: fc.oneof(fc.stringMatching(/^[0-9A-Z]{4,6}$/), hostileString),
};

/** A JSON object as text: some of the real fields, each plausible or hostile, and a few hostile extra keys. */
const mixedRecord = (fields: string[]) =>
  fc
    .tuple(
      fc.shuffledSubarray(fields).chain((names) =>
        fc.tuple(...names.map((name) => fc.oneof(plausible[name].map(json), hostileValueText).map((value): [string, string] => [name, value]))),
      ),
      fc.array(fc.tuple(hostileKey, hostileValueText), { maxLength: 3 }),
    )
    .map(([known, extra]) => objectText([...known, ...extra]));

/** Any JSON-able value, as JSON text. */
const anyJson = fc.oneof(
  fc.jsonValue().map(json),
  fc
    .anything({ withNullPrototype: true, withObjectString: true })
    .map((value) => JSON.stringify(value))
    .filter((text): text is string => typeof text === 'string'),
);

/** Where to nest how deep in a valid body; the text stays under the default body limit. */
const deepNesting = fc
  .record({
    depth: fc.constantFrom(50, 1_000, 5_000, 15_000, 45_000),
    array: fc.boolean(),
    field: fc.constantFrom('to', 'code', 'message', 'unknown_field'),
    leaf: fc.constantFrom('1', '"x"', 'null', '{}'),
  })
  .filter(({ depth, array }) => depth * (array ? 2 : 7) < DEFAULT_BODY_LIMIT - 1024);
const deeplyNested = ({ depth, array, field, leaf }: { depth: number; array: boolean; field: string; leaf: string }) =>
  objectText([
    ...Object.entries({ ...smsBody('+2250707000004'), code: '1234' }).map(([key, value]): [string, string] => [key, json(value)]),
    [field, nested(depth, array, leaf)],
  ]);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/json; boundary=',
  'application/jsonp',
  'application/vnd.api+json',
  'application/problem+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/json',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'json',
  '/',
  ';',
  '',
];
/** Characters Node's HTTP client accepts in a header value. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff }))
      .map((unit) => String.fromCharCode(unit)),
    maxLength,
  });
const contentType = fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerText(60), headerText(20).map((suffix) => `application/json${suffix}`));

const PERCENT_GARBAGE = ['.', '..', '...', '%2e', '%2e%2e', '%2E%2E%2F', '%', '%%', '%zz', '%E0%A4%A', '%00', '%C0%AF', '%ED%A0%80', '%FF%FE', '%u0041', '%2F', '%5C', '%0d%0a', '%25', '%2525'];

interface Seeds {
  smsId: string;
  lot: string;
  groupId: string;
}

/** A path segment: encoded code points, long ones, percent garbage, dots, and mangled real ids. */
const pathSegment = (seeds: () => Seeds) =>
  fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(encodeSegment),
    fc.string({ unit: hostileUnit, minLength: 1, maxLength: 12 }).map(encodeSegment),
    fc.constantFrom(...PERCENT_GARBAGE),
    fc.array(fc.constantFrom(...PERCENT_GARBAGE), { minLength: 2, maxLength: 6 }).map((parts) => parts.join('')),
    fc.integer({ min: 90, max: 12_000 }).map((length) => 'a'.repeat(length)),
    fc.string({ unit: 'binary', minLength: 100, maxLength: 1_000 }).map(encodeSegment),
    fc.uuid(),
    fc
      .tuple(fc.constantFrom<keyof Seeds>('smsId', 'lot', 'groupId'), fc.constantFrom('upper', 'space', 'nul', 'dot', 'same'))
      .map(([which, how]) => {
        const id = seeds()[which];
        if (how === 'upper') return id.toUpperCase();
        if (how === 'space') return `${id}%20`;
        if (how === 'nul') return `${id}%00`;
        if (how === 'dot') return `${id}.`;
        return id;
      }),
  );

/** Every table is still there and readable, and the balance is still the sum of the ledger. */
async function expectConsistent(t: TestApp, tenant: Tenant, tables: string[]) {
  await t.deliver();
  expect(await tableNames(t)).toEqual(tables);
  const counts = await t.database.run((sql) => Promise.all(tables.map((table) => sql.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM \`${table}\``))));
  expect(counts.map((row) => Number.isInteger(Number(row?.n)))).toEqual(tables.map(() => true));

  const { balance, ledger } = await t.database.run(async (sql) => ({
    balance: await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]),
    ledger: await sql.get<{ total: number | string | null; entries: number | string }>(
      'SELECT SUM(amount) AS total, COUNT(*) AS entries FROM ledger_entry WHERE account_id = ?',
      [tenant.accountId],
    ),
  }));
  expect(Number(ledger?.entries)).toBeGreaterThan(1);
  expect(Number(balance?.balance)).toBe(Number(ledger?.total));
}

afterAll(() => {
  const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
  console.log(`hostile input: ${tally.requests} requests, ${tally.serverErrors} × 5xx (${statuses.join(', ')})`);
});

describe('Hostile input', () => {
  let t: TestApp;
  let tenant: Tenant;
  let token: string;
  let seeds: Seeds;
  let tables: string[];

  const post = (path: string) => t.http().post(path).set('Authorization', tenant.auth);
  const postJsonText = (path: string, text: string) => post(path).set('Content-Type', 'application/json').send(text);

  beforeAll(async () => {
    t = await startTestApp(LIMITS_OFF);
    tenant = await createTenant(t, { balance: '100000000.00' });
    token = (await t.admin.issueToken(tenant.userId)).token;
    const sent = await post('/v1/otp/send').send(smsBody('+2250707000000'));
    const read = await t.http().get(`/v1/sms/out/${sent.body.data.uniq_id}`).set('Authorization', tenant.auth);
    const { id: groupId } = await t.admin.createGroup(tenant.accountId, 'Hostile');
    seeds = { smsId: sent.body.data.uniq_id, lot: read.body.data.lot, groupId };
    tables = await tableNames(t);
  }, 60_000);
  afterAll(() => t?.close());

  describe.each([
    ['POST /v1/otp/send', '/v1/otp/send', SEND_FIELDS],
    ['POST /v1/otp/verify', '/v1/otp/verify', VERIFY_FIELDS],
  ])('%s', (_, path, fields) => {
    it('answers any JSON value with the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(anyJson, async (text) => {
          await answer(postJsonText(path, text));
        }),
      );
    }, 60_000);

    it('answers records of real fields with hostile values with the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(mixedRecord(fields), async (text) => {
          await answer(postJsonText(path, text));
        }),
      );
    }, 60_000);

    it('answers a value nested up to the body limit with the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(deepNesting, fc.option(fc.uuid()), async (nesting, idempotencyKey) => {
          const request = postJsonText(path, deeplyNested(nesting));
          if (idempotencyKey !== null) request.set('Idempotency-Key', idempotencyKey);

          await answer(request);
        }),
        { numRuns: 20 },
      );
    }, 60_000);

    it('answers a body of bytes that are not UTF-8 with the envelope', async () => {
      const bytes = fc.uint8Array({ minLength: 1, maxLength: 64 }).map((array) => Buffer.from(array));
      const body = fc.oneof(
        bytes,
        bytes.map((inside) => Buffer.concat([Buffer.from('{"to":"'), inside, Buffer.from('","code":"1234","channel":"SMS","message":"##OTP##"}')])),
        fc.constantFrom(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), Buffer.from('{"to":"\xc0\xaf"}', 'latin1')),
      );
      await fc.assert(
        fc.asyncProperty(body, async (buffer) => {
          await answer(post(path).set('Content-Type', 'application/json').send(buffer));
        }),
      );
    }, 60_000);

    it('answers any Content-Type with the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(contentType, mixedRecord(fields), async (type, text) => {
          await answer(post(path).set('Content-Type', type).send(text));
        }),
      );
    }, 60_000);

    it('answers 413 to a 1 MB string in any field', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fields, 'padding'), hostileUnit, async (field, unit) => {
          const body = { ...smsBody('+2250707000001'), [field]: unit.repeat(Math.ceil(ONE_MB / unit.length)) };

          const res = await answer(post(path).send(body));

          expect(res.body).toEqual({ status: 413, message: 'requete_trop_volumineuse' });
        }),
        { numRuns: BIG_BODY_RUNS },
      );
    }, 60_000);
  });

  describe('POST /v1/otp/send with hostile free text', () => {
    it('keeps an SMS text as given, code masked, when the rest is valid', async () => {
      await fc.assert(
        fc.asyncProperty(phone, wellFormed, wellFormed, async (to, before, applicationName) => {
          const message = `${before}##OTP##`;
          const sent = await answer(post('/v1/otp/send').send(smsBody(to, { message, application_name: applicationName || 'App' })));
          if (sent.status !== 200) return;

          const read = await answer(t.http().get(`/v1/sms/out/${sent.body.data.uniq_id}`).set('Authorization', tenant.auth));

          expect(read.body).toEqual({
            status: 200,
            message: 'succès',
            data: expect.objectContaining({ message: message.split('##OTP##').join('******') }),
          });
        }),
      );
    }, 60_000);

    it('answers an e-mail with a hostile display name and text with the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(email, hostileString, hostileString, async (to, sender, before) => {
          await answer(post('/v1/otp/send').send(emailBody(to, { sender, message: `${before}##OTP##`, application_name: before || 'App' })));
        }),
      );
    }, 60_000);
  });

  describe.each([
    ['GET /v1/sms/out/{id}', 'get', '/v1/sms/out/'],
    ['GET /v1/group/{id}', 'get', '/v1/group/'],
    ['DELETE /v1/group/{id}', 'delete', '/v1/group/'],
  ] as const)('%s', (_, method, prefix) => {
    it('answers any path segment with the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(
          pathSegment(() => seeds),
          async (segment) => {
            await answer(t.http()[method](`${prefix}${segment}`).set('Authorization', tenant.auth));
          },
        ),
      );
    }, 60_000);
  });

  describe('long ids', () => {
    it.each([1_001, 10_000])('GET /v1/sms/out/{id} answers an id of %i characters with 404 Non trouvé', async (length) => {
      const res = await answer(t.http().get(`/v1/sms/out/${'a'.repeat(length)}`).set('Authorization', tenant.auth));

      expect(res.body).toEqual({ status: 404, message: 'Non trouvé', errors: [expect.any(String)] });
    });

    it.each([
      ['GET', 1_001],
      ['DELETE', 1_001],
      ['GET', 10_000],
      ['DELETE', 10_000],
    ] as const)('%s /v1/group/{id} answers an id of %i characters with 404 Groupe non trouvé', async (method, length) => {
      const request = method === 'GET' ? t.http().get(`/v1/group/${'a'.repeat(length)}`) : t.http().delete(`/v1/group/${'a'.repeat(length)}`);

      const res = await answer(request.set('Authorization', tenant.auth));

      expect(res.body).toEqual({ status: 404, message: 'Groupe non trouvé' });
    });

    it('answers a request line over 16 KB with the envelope', async () => {
      await answer(t.http().get(`/v1/sms/out/${'a'.repeat(17_000)}`).set('Authorization', tenant.auth));
    });
  });

  describe('non-ASCII ids', () => {
    it.each(['%C3%A9', '%C2%80', '%F0%9F%98%80', '%D8%A7%D9%84'])('GET /v1/sms/out/%s answers 404 Non trouvé', async (id) => {
      const res = await answer(t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth));

      expect(res.body).toEqual({ status: 404, message: 'Non trouvé', errors: [expect.any(String)] });
    });
  });

  describe('header noise', () => {
    const authorization = () =>
      fc.oneof(
        headerText(80),
        headerText(80).map((value) => `Bearer ${value}`),
        headerText(8).map((value) => `Bearer ${tenant.apiKey}${value}`),
        headerText(8).map((value) => `Bearer ${token}${value}`),
        fc.constantFrom('Bearer', 'Bearer ', 'Bearer  ', 'bearer\t', 'Basic', 'Bearer null', 'Bearer undefined', 'Bearer ..', 'Bearer a.b.c', `Bearer ${'a'.repeat(8000)}`),
        fc.nat({ max: 40 }).map((cut) => `Bearer ${tenant.apiKey.slice(0, -1 - cut)}`),
      );

    it('answers random Authorization values with the envelope, and a refusal with exactly 401', async () => {
      await fc.assert(
        fc.asyncProperty(authorization(), fc.constantFrom('/v1/account', '/v1/otp/verify', '/v1/group/00000000-0000-7000-8000-000000000000'), async (value, path) => {
          const request = path === '/v1/otp/verify' ? t.http().post(path).send({ to: '+2250707000000', code: '0000' }) : t.http().get(path);

          const res = await answer(request.set('Authorization', value));

          if (res.status === 401) expect(res.body).toEqual(UNAUTHORIZED);
        }),
      );
    }, 60_000);

    it('answers random Idempotency-Key values with the envelope', async () => {
      const key = fc.oneof(headerText(40), headerText(300), fc.constantFrom('', ' ', 'reused-key', 'x'.repeat(255), 'x'.repeat(256)));
      await fc.assert(
        fc.asyncProperty(key, phone, async (value, to) => {
          await answer(post('/v1/otp/send').set('Idempotency-Key', value).send(smsBody(to)));
        }),
      );
    }, 60_000);

    it('never echoes a malformed X-Request-Id', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(headerText(100), fc.constantFrom('', 'a'.repeat(65), 'id\u00ff', '../../x')), async (value) => {
          const res = await answer(t.http().get('/v1/account').set('Authorization', tenant.auth).set('X-Request-Id', value));

          expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
        }),
      );
    }, 60_000);

    it('answers duplicated headers with the envelope', async () => {
      const duplicated = fc.tuple(
        fc.constantFrom('Authorization', 'Idempotency-Key', 'X-Request-Id', 'Content-Type'),
        fc.array(fc.oneof(headerText(40), fc.constantFrom(tenant.auth, `Bearer ${token}`, 'application/json', 'text/plain')), { minLength: 2, maxLength: 4 }),
      );
      await fc.assert(
        fc.asyncProperty(duplicated, phone, async ([name, values], to) => {
          const request = post('/v1/otp/send').set('Content-Type', 'application/json').send(json(smsBody(to)));
          (request as unknown as { set(name: string, value: string[]): Test }).set(name, values);

          await answer(request);
        }),
      );
    }, 60_000);

    it('answers a header over 16 KB with the envelope', async () => {
      await answer(t.http().get('/v1/account').set('Authorization', tenant.auth).set('X-Padding', 'a'.repeat(17_000)));
    });
  });

  describe('afterwards', () => {
    it('left no prototype polluted', () => {
      expect(Object.keys(Object.prototype)).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('left the database consistent', async () => {
      await expectConsistent(t, tenant, tables);
    });
  });
});

describe('Hostile input with BODY_LIMIT_BYTES above 1 MB', () => {
  let t: TestApp;
  let tenant: Tenant;
  let tables: string[];

  const post = (path: string) => t.http().post(path).set('Authorization', tenant.auth);

  beforeAll(async () => {
    t = await startTestApp({ ...LIMITS_OFF, BODY_LIMIT_BYTES: String(8 * ONE_MB) });
    tenant = await createTenant(t, { balance: '100000000.00' });
    tables = await tableNames(t);
  }, 60_000);
  afterAll(() => t?.close());

  it.each([
    ['POST /v1/otp/send', '/v1/otp/send', SEND_FIELDS],
    ['POST /v1/otp/verify', '/v1/otp/verify', VERIFY_FIELDS],
  ])('%s answers a 1 MB string in a field with 400 naming the field', async (_, path, fields) => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), hostileUnit, async (field, unit) => {
        const body = { ...smsBody('+2250707000002'), code: '123456', [field]: unit.repeat(Math.ceil(ONE_MB / unit.length)) };

        const res = await answer(post(path).send(body));

        // text that is not well-formed Unicode (a lone surrogate) is refused as a whole body
        const blame = unit.isWellFormed() ? new RegExp(`^${field}: `) : /^body: JSON invalide$/;
        expect(res.body).toEqual({
          status: 400,
          message: 'erreur_de_validation',
          errors: expect.arrayContaining([expect.stringMatching(blame)]),
        });
      }),
      { numRuns: BIG_BODY_RUNS },
    );
  }, 60_000);

  it('answers a 1 MB unknown field or key with the envelope, and sends the body without it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), hostileUnit, async (asKey, unit) => {
        const big = unit.repeat(Math.ceil(ONE_MB / unit.length));
        const body = asKey ? { ...smsBody('+2250707000003'), [big]: 1 } : { ...smsBody('+2250707000003'), padding: big };

        const res = await answer(post('/v1/otp/send').send(body));

        expect(res.status).toBe(400);
        expect(res.text.length).toBeLessThan(1_000);
      }),
      { numRuns: BIG_BODY_RUNS },
    );
    expect((await answer(post('/v1/otp/send').send(smsBody('+2250707000003')))).status).toBe(200);
  }, 60_000);

  it('left the database consistent', async () => {
    await expectConsistent(t, tenant, tables);
  });
});
