import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Response } from 'supertest';
import { WEBHOOK_RESOLVER } from '../src/webhook/url-guard.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { operationsOf, type ApiOperation } from './support/openapi-operations.js';
import { arbitraryOf, invalidVariants, type Hints, type Schema } from './support/schema-arbitrary.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Requests made from `/docs-json` alone, for every operation it lists: those
 * its schemas call valid never get a 400 for a reason the document could have
 * stated (only for one of UNSTATABLE), and those they call invalid (one rule
 * broken, by invalidVariants) never get a 2xx. Every answer is also checked
 * against the document (TestApp.http).
 */

/** Valid requests per operation. */
const VALID_RUNS = 12;
/** Valid requests per operation whose changes into invalid ones are all sent. */
const INVALID_BASES = 2;

fc.configureGlobal({ ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) });

/**
 * What a 400 may be about for a request the document calls valid: what no
 * schema can say, because it depends on data the caller does not send, on
 * the time, on the DNS, or on two fields at once.
 */
const UNSTATABLE: Array<[RegExp, string]> = [
  [/numéro de téléphone invalide|aucun destinataire valide|aucun numéro valide/, 'whether a number exists in its numbering plan'],
  [/^\+\d{6,15}: /, 'why a recipient was refused: its number, or its being opted out, a duplicate…'],
  [/^code: code OTP invalide$/, 'which code was sent'],
  [/^to: adresse e-mail invalide$/, "an OTP's `to` is a phone number or an e-mail address, as `channel` says"],
  [/^sender: (expéditeur|doit faire|doit tenir)/, "the account's approved senders, and the sender rule of the OTP's channel"],
  [/: (groupe|contact|expéditeur) (inconnu|non trouvé)$|^group_id: groupe non trouvé$/, 'which ids belong to the account'],
  [/^cursor: curseur invalide$/, 'a cursor is the token of an earlier page'],
  [/^value: /, "a fraud list entry's value, whose form its kind says (two fields at once)"],
  [/^number_types: un type ne peut être à la fois dans block et monitor/, "a fraud policy's number types, merged with those it has"],
  [/^delivery_window\.to: doit différer de from$/, 'two fields compared'],
  [/^(send_at|created_to|created_from): /, 'an instant compared with now or with another field'],
  [/^message: ne doit pas dépasser 1600 caractères une fois le code inséré$/, "a length counted with the code in the message"],
  [/^(webhook_url|url): /, "where a URL's name resolves"],
  [/^(timezone|delivery_window\.timezone): fuseau horaire IANA inconnu/, 'the time zones of the runtime'],
];

/** The phone numbers of valid requests: the document can only say "a string" of them (see UNSTATABLE). */
const PHONE = fc.constantFrom('+2250707070707', '+221771234567', '+2250102030405', '+33612345678', '+2348031234567');

const ENV = {
  RATE_LIMIT_PER_MINUTE: '0',
  OTP_MAX_SENDS_PER_RECIPIENT: '1000000',
  OTP_MAX_FAILED_VERIFICATIONS: '1000000',
  OTP_MAX_ATTEMPTS: '100',
  SMS_DUPLICATE_WINDOW_SECONDS: '0',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
/** Every webhook name resolves to the loopback, where nothing listens on its port: no request leaves the machine. */
const loopback = async () => [{ address: '127.0.0.1', family: 4 }];

const t: TestApp = await startTestApp(ENV, [[WEBHOOK_RESOLVER, loopback]]);
const document = (await t.http().get('/docs-json').expect(200)).body as OpenAPIObject;
const operations = await operationsOf(document);
const ajv = new Ajv2020({ strict: false, allErrors: false, multipleOfPrecision: 6 });
formats.default(ajv);

let tenant: Tenant;
let groupId: string;
let contactId: string;

beforeAll(async () => {
  tenant = await createTenant(t, { balance: '1000000.00' });
  groupId = (await t.admin.createGroup(tenant.accountId, 'Clients')).id;
  contactId = (await t.admin.createContact(tenant.accountId, { phone: '+2250707070808' })).contact_id;
});

afterAll(() => t.close());

describe('requests generated from /docs-json', () => {
  it('cover every operation of the document', () => {
    const listed = Object.values(document.paths).flatMap((item) => Object.keys(item).filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key)));
    expect(operations).toHaveLength(listed.length);
    expect(new Set(operations.map((operation) => `${operation.method} ${operation.path}`)).size).toBe(listed.length);
    expect(listed.length).toBeGreaterThanOrEqual(56);
  });

  describe.each(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))('%s', (_, operation) => {
    const request = requestArbitrary(operation);
    const valid = validatorOf(operation);

    it('answers requests valid by the document without a 400 it could have stated', async () => {
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          fc.pre(valid(input));
          const res = await send(operation, input);
          expect(res.status).toBeLessThan(500);
          if (res.status === 400) expect(statable(res.body.errors as string[])).toEqual([]);
        }),
        { numRuns: VALID_RUNS, maxSkipsPerRun: 200 },
      );
    }, 120_000);

    it('never answers 2xx to a request that breaks one rule of the document', async () => {
      // drawn and then sorted, not filtered while drawn: a rare valid value would keep the sampler looping
      const bases = fc.sample(request, 50).filter(valid).slice(0, INVALID_BASES);
      expect(bases.length).toBeGreaterThan(0);
      for (const base of bases) {
        for (const variant of variantsOf(operation, base).filter((changed) => !valid(changed.input))) {
          const res = await send(operation, variant.input);
          if (res.status < 300 && refusedItem(operation, variant.why, res)) continue;
          if (res.status < 300) throw new Error(`${variant.why} got ${res.status}: ${JSON.stringify(variant.input).slice(0, 400)}`);
          expect(res.status).toBeLessThan(500);
        }
      }
    }, 120_000);
  });
});

interface RequestInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: unknown;
}

function requestArbitrary(operation: ApiOperation): fc.Arbitrary<RequestInput> {
  const context = { hints: hintsFor(operation), dates: { min: new Date(t.clock.now().getTime() + 3_600_000), max: new Date(t.clock.now().getTime() + 20 * 86_400_000) } };
  const body = operation.body
    ? operation.body.required
      ? arbitraryOf(operation.body.schema, context)
      : fc.option(arbitraryOf(operation.body.schema, context), { nil: undefined })
    : fc.constant(undefined);
  return fc.record({
    path: fc.record(Object.fromEntries(operation.pathParameters.map((name) => [name, pathValue(name)]))),
    query: arbitraryOf(operation.query, context) as fc.Arbitrary<Record<string, unknown>>,
    headers: arbitraryOf(operation.headers, context) as fc.Arbitrary<Record<string, unknown>>,
    body,
  });
}

/** Values the document cannot describe closely enough for a request to get past them (see UNSTATABLE). */
function hintsFor(operation: ApiOperation): Hints {
  const phoneOrList = fc.oneof(PHONE, fc.array(PHONE, { minLength: 1, maxLength: 3 }));
  const byPath: Record<string, fc.Arbitrary<unknown>> = {
    to: operation.path === '/v1/sms/send' ? phoneOrList : PHONE,
    'to[]': PHONE,
    phone: PHONE,
    'phones[]': PHONE,
    'contacts[].phone': PHONE,
    'numbers[]': PHONE,
    number: PHONE,
    sender: fc.constant('DEMO'),
    // read when drawn: the ids are made once the app is up, after the arbitraries
    'group_ids[]': fc.constant(null).map(() => groupId),
    'contact_ids[]': fc.constant(null).map(() => contactId),
    webhook_url: fc.constant('https://hooks.example.com/sms'),
    url: fc.constant('https://hooks.example.com/events'),
  };
  return (path) => byPath[path];
}

function pathValue(name: string): fc.Arbitrary<string> {
  if (name === 'phone') return PHONE;
  if (name === 'lot') return fc.constant('lot-inconnu');
  return fc.uuid({ version: 7 });
}

function validatorOf(operation: ApiOperation): (input: RequestInput) => boolean {
  const compiled = new Map<Schema, ValidateFunction>();
  const check = (schema: Schema, value: unknown) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    return validate(value);
  };
  return (input) =>
    check(operation.query, input.query) &&
    check(operation.headers, input.headers) &&
    (operation.body === undefined || (input.body === undefined ? !operation.body.required : check(operation.body.schema, input.body)));
}

/** The input changed in one place each, in its body, query or headers. */
function variantsOf(operation: ApiOperation, base: RequestInput): Array<{ why: string; input: RequestInput }> {
  const inBody =
    operation.body === undefined || base.body === undefined
      ? []
      : invalidVariants(operation.body.schema, base.body).map(({ why, value }) => ({ why, input: { ...base, body: value } }));
  const asText = (why: string) => !why.includes('instead of') && !why.endsWith(': null');
  const inQuery = invalidVariants(operation.query, base.query)
    .filter(({ why }) => asText(why) && why !== 'body: a list instead of an object')
    .map(({ why, value }) => ({ why: `query ${why}`, input: { ...base, query: value as Record<string, unknown> } }));
  // HTTP carries visible ASCII in a header, and strips spaces at its ends
  const sendable = (headers: unknown) => Object.values(headers as object).every((value) => /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/.test(String(value)));
  const inHeaders = invalidVariants(operation.headers, base.headers)
    .filter(({ why, value }) => asText(why) && why !== 'body: a list instead of an object' && sendable(value))
    .map(({ why, value }) => ({ why: `header ${why}`, input: { ...base, headers: value as Record<string, unknown> } }));
  return [...inBody, ...inQuery, ...inHeaders];
}

async function send(operation: ApiOperation, input: RequestInput): Promise<Response> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(input.path[name]));
  const query = new URLSearchParams(Object.entries(input.query).map(([name, value]): [string, string] => [name, String(value)])).toString();
  let request = t.http()[operation.method](`${path}${query ? `?${query}` : ''}`).set('Authorization', tenant.auth);
  for (const [name, value] of Object.entries(input.headers)) request = request.set(name, String(value));
  if (operation.otherBodyTypes.includes('text/csv')) return request.set('Content-Type', 'text/csv').send('phone\n+2250707070909\n');
  return input.body === undefined ? request : request.set('Content-Type', 'application/json').send(JSON.stringify(input.body));
}

/**
 * `POST /contact/bulk` checks each contact alone (SPEC-2): a contact that breaks
 * a rule is refused by its index in a 200, and the others are written.
 */
function refusedItem(operation: ApiOperation, why: string, res: Response): boolean {
  const index = /^contacts\[(\d+)\]/.exec(why)?.[1];
  const refused = (res.body.data?.errors ?? []) as Array<{ index: number }>;
  return operation.path === '/v1/contact/bulk' && index !== undefined && refused.some((item) => item.index === Number(index));
}

/** The errors of a 400 that the document could have stated. */
const statable = (errors: string[]): string[] => errors.filter((error) => !UNSTATABLE.some(([pattern]) => pattern.test(error)));
