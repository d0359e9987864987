import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OpenAPIObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { newId } from '../src/common/ids.js';
import { CAMPAIGN_QUEUE } from '../src/campaign/campaign.worker.js';
import { CONTACT_IMPORT_QUEUE } from '../src/contact-import/contact-import.worker.js';
import { InboundMessages } from '../src/delivery/inbound-messages.js';
import { HLR_QUEUE } from '../src/hlr/hlr.worker.js';
import { createTenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CLIENT = join(process.cwd(), 'test', 'client', 'client.ts');

type Envelope = { status: number; message: string; errors?: string[]; data?: Record<string, unknown> };
/** What the tests call on the client directly. */
interface Api {
  createGroup(name: string): Promise<{ status: number; body: { data: { id: string } } }>;
  addMembers(groupId: string, body: { phones: string[] }): Promise<{ status: number }>;
}

/** What the test uses of test/client/client.ts, whose own types exist only once api-types.ts is generated. */
interface ClientModule {
  ApiClient: new (baseUrl: string, token: string) => Api;
  sendAndVerify(api: Api, to: string): Promise<{ sent: Envelope & { data: { uniq_id: string } }; wrongCode: Envelope; verified: Envelope }>;
  verifyTooLate(api: Api, to: string, elapse: () => Promise<void>): Promise<Envelope>;
  sendWithoutFunds(api: Api, to: string): Promise<Envelope>;
  readSms(api: Api, id: string): Promise<Envelope>;
  readMissingSms(api: Api, id: string): Promise<Envelope>;
  readThenDeleteGroup(api: Api, id: string): Promise<Record<string, Envelope>>;
  readAccount(api: Api): Promise<Envelope>;
  configureWebhook(api: Api, url: string, messageId: string): Promise<Record<string, Envelope>>;
  optOutAndBack(api: Api, phone: string, stopped: string): Promise<Record<string, Envelope>>;
  contactEventSummary(event: object): string;
  readInbox(api: Api, from: string): Promise<Record<string, unknown>>;
  inboundEventSummary(event: object): string;
  lookUpNumbers(api: Api, numbers: string[], answered: () => Promise<void>): Promise<Record<string, unknown>>;
  hlrEventSummary(event: object): string;
  buildAddressBook(api: Api): Promise<Record<string, unknown>>;
  requestSenderId(api: Api): Promise<Record<string, unknown>>;
  sendToGroupAndCancelALot(api: Api, sendAt: string): Promise<Record<string, unknown>>;
  readUsage(api: Api, from: string, to: string): Promise<Record<string, unknown>>;
  followALot(api: Api, lot: string): Promise<Record<string, unknown>>;
  importContacts(api: Api, file: string, finished: () => Promise<void>): Promise<Record<string, Envelope>>;
  watchTheBalance(api: Api, to: string): Promise<Record<string, unknown>>;
  balanceEventSummary(event: object): string;
  runACampaign(api: Api, phones: string[], materialised: () => Promise<void>): Promise<Record<string, unknown>>;
  campaignEventSummary(event: object): string;
}

/**
 * `SwaggerParser.validate` on a copy of `doc` (a worker's data is a structured clone), in a worker thread: the parser loads an ES module through
 * require(), which Node does and Jest's module system does not. Resolves to the error message, '' when valid.
 */
function validationError(doc: object): Promise<string> {
  const script = `
    const { parentPort, workerData } = require('node:worker_threads');
    require('@apidevtools/swagger-parser').validate(workerData).then(() => parentPort.postMessage(''), (error) => parentPort.postMessage(error.message));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: true, workerData: doc });
    worker.once('message', (message: string) => void worker.terminate().then(() => resolve(message)));
    worker.once('error', reject);
  });
}

/** `node`, or what its local `$ref` points to. */
function resolved<T extends object>(doc: OpenAPIObject, node: T | ReferenceObject | undefined): T | undefined {
  if (!node || !('$ref' in node)) return node;
  const target = node.$ref.replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], doc);
  return resolved(doc, target as T | ReferenceObject | undefined);
}

/**
 * `METHOD path status` of each 4xx/5xx answer of each operation whose JSON body carries no example
 * of its envelope: with that status, a message and every property the schema requires.
 */
function errorAnswersWithoutExample(doc: OpenAPIObject): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      for (const [status, answer] of Object.entries(item[method]?.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        const media = resolved<ResponseObject>(doc, answer)?.content?.['application/json'];
        const schema = resolved<SchemaObject>(doc, media?.schema);
        const examples = [media?.example, ...Object.values(media?.examples ?? {}).map((e) => resolved(doc, e)?.value), schema?.example];
        const complete = (example: Record<string, unknown>) =>
          example.status === Number(status) && typeof example.message === 'string' && (schema?.required ?? []).every((key) => key in example);
        if (!examples.some((example) => example && complete(example))) missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
  }
  return missing;
}

/** Type errors of `files`, compiled as strictly as a client team would. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/** The OpenAPI document is valid and complete, and a client typed only by what it generates compiles and works. */
describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenAPIObject;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    doc = (await t.http().get('/docs-json').expect(200)).body;
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    // a property with a default may be left out of a request
    writeFileSync(join(dir, 'api-types.ts'), astToString(await openapiTS(structuredClone(doc) as never, { defaultNonNullable: false })));
    copyFileSync(CLIENT, join(dir, 'client.ts'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes the OpenAPI validator, which refuses a broken document', async () => {
    expect(await validationError(doc)).toBe('');
    expect(await validationError({ ...doc, info: {} })).toContain("must have required property 'title'");
  });

  it('gives every error answer of every operation an example of its envelope', () => {
    expect(errorAnswersWithoutExample(doc)).toEqual([]);

    const broken = structuredClone(doc);
    const notFound = broken.paths['/v1/group/{id}']!.get!.responses[404] as ResponseObject;
    delete (notFound.content!['application/json']!.schema as SchemaObject).example;
    expect(errorAnswersWithoutExample(broken)).toEqual(['GET /v1/group/{id} 404']);
  });

  it('gives types under which the client compiles without error', () => {
    expect(typeErrors([join(dir, 'client.ts')])).toEqual([]);
  });

  it('gives types that refuse a field or a value the interface does not have', () => {
    const wrong = join(dir, 'wrong.ts');
    writeFileSync(
      wrong,
      [
        "import type { components, paths } from './api-types.js';",
        "type Account = paths['/v1/account']['get']['responses'][200]['content']['application/json']['data'];",
        'export const balance = (account: Account) => account.solde;',
        "export const recipient = (sms: components['schemas']['MessageOutDto']) => sms.recipient_name;",
        "export const send: components['schemas']['SendOtpDto'] = { channel: 'FAX', to: '+2250707070707', message: '##OTP##' };",
        "export const optedOut = (event: components['schemas']['ContactWebhookEventDto']) => event.data.recipient;",
        "export const source: components['schemas']['OptOutDto']['source'] = 'stop';",
        "export const sending = (lot: components['schemas']['LotSummaryDto']) => lot.by_status.sending;",
        "export const mms: NonNullable<paths['/v1/sms/out']['get']['parameters']['query']> = { type: 'mms' };",
      ].join('\n'),
    );

    expect(typeErrors([wrong])).toEqual([
      expect.stringContaining("Property 'solde' does not exist"),
      expect.stringContaining("Property 'recipient_name' does not exist"),
      expect.stringContaining('"FAX"'),
      expect.stringContaining("Property 'recipient' does not exist"),
      expect.stringContaining('"stop"'),
      expect.stringContaining("Property 'sending' does not exist"),
      expect.stringContaining('"mms"'),
    ]);
  });

  describe('run against the service', () => {
    const to = '+2250707070707';
    let client: ClientModule;
    let baseUrl: string;

    beforeAll(async () => {
      await t.app.listen(0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      // imported by path: the project's type-check leaves the client out, as its types exist only here
      client = (await import(CLIENT)) as ClientModule;
    });

    it('sends and verifies an SMS OTP, then reads its SMS, a group and the account', async () => {
      const tenant = await createTenant(t, { balance: '1000.00' });
      const { id: groupId } = await t.admin.createGroup(tenant.accountId, 'Clients', 'Early adopters');
      const api = new client.ApiClient(baseUrl, tenant.apiKey);

      const otp = await client.sendAndVerify(api, to);
      const uniqId = otp.sent.data.uniq_id;
      expect(otp.sent).toEqual({ status: 200, message: 'succès', data: { uniq_id: expect.any(String), code: expect.stringMatching(/^\d{6}$/), expires_at: expect.any(Number) } });
      expect(otp.wrongCode).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] });
      expect(otp.verified).toEqual({
        status: 200,
        message: 'success',
        data: { uniq_id: uniqId, to, channel: 'sms', verified_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), send_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), application_name: null },
      });

      await t.deliver();
      expect(await client.readSms(api, uniqId)).toEqual({
        status: 200,
        message: 'succès',
        data: {
          company_id: tenant.accountId,
          uniq_id: uniqId,
          external_id: null,
          message_price_id: expect.any(String),
          type: 'otp',
          lot: expect.any(String),
          sender_id: tenant.senderId,
          contact_id: null,
          to,
          campaign_id: null,
          message: 'Votre code est ******',
          page: '1',
          message_encoding: 'GSM7',
          amount: 2.5,
          send_at: expect.any(String),
          done_at: null,
          mccmnc: null,
          dlr_number_retry: 0,
          provider: 'log',
          provider_id: expect.any(String),
          provider_status: null,
          source: 'api',
          status: 'sent',
          created_by: tenant.userId,
          webhook_url: null,
          webhook_response: null,
          retrieve: false,
          local_number: null,
          language: 'fr',
          sandbox: false,
          company: { id: tenant.accountId, name: expect.any(String), email: null, phone: null },
          message_price: { id: expect.any(String), description: expect.any(String), amount: 2.5 },
          sender: { id: tenant.senderId, name: 'DEMO', email: null, phone: null },
          contact: null,
          author: { id: tenant.userId, name: expect.any(String), email: null },
        },
      });
      expect(await client.readMissingSms(api, 'no-such-message')).toEqual({ status: 404, message: 'Non trouvé', errors: [expect.any(String)] });

      expect(await client.readThenDeleteGroup(api, groupId)).toEqual({
        found: {
          status: 200,
          message: 'succès',
          data: { id: groupId, company_id: tenant.accountId, name: 'Clients', description: 'Early adopters', created_by: tenant.userId, created_at: expect.any(String) },
        },
        deleted: { status: 200, message: 'success' },
        gone: { status: 404, message: 'Groupe non trouvé' },
        deletedAgain: { status: 404, message: 'Groupe non trouvé' },
      });

      expect(await client.readAccount(api)).toEqual({
        status: 200,
        message: 'OK',
        data: { id: tenant.accountId, name: expect.any(String), balance: 997.5, address: null, logo_url: null, country_id: null, created_by: tenant.userId, created_at: expect.any(String) },
      });
    });

    it('sets the account webhook, rotates its secret, and reads the refusals of a private URL and of a resend without events', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);
      const sent = await client.sendAndVerify(api, '+2250707070709');
      const url = 'https://93.184.215.14/sms';
      expect(await client.configureWebhook(api, url, sent.sent.data.uniq_id)).toEqual({
        set: { status: 200, message: 'succès', data: { url, events: ['sms.delivered', 'sms.failed'], disabled_at: null, secret: expect.stringMatching(/^whsec_/) } },
        read: { status: 200, message: 'succès', data: { url, events: ['sms.delivered', 'sms.failed'], disabled_at: null, secret: null } },
        rotated: { status: 200, message: 'succès', data: { secret: expect.stringMatching(/^whsec_/) } },
        refused: { status: 400, message: 'erreur_de_validation', errors: ['url: adresse privée ou réservée refusée'] },
        resend: { status: 409, message: 'transition_invalide', errors: ["id: ce SMS n'a encore aucun évènement webhook"] },
      });
    });

    it('puts a number on the opt-out list, reads the list, re-subscribes it, and reads the refusals', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);
      await t.database.run((sql) =>
        sql.run("INSERT INTO opt_out (id, account_id, sandbox, phone, source, keyword, created_at) VALUES (?, ?, 0, '+2250707070799', 'sms_keyword', 'STOP', ?)", [
          newId(t.clock.now()),
          tenant.accountId,
          t.clock.now(),
        ]),
      );

      expect(await client.optOutAndBack(api, '07 07 07 07 10', '+2250707070799')).toEqual({
        refused: { status: 400, message: 'erreur_de_validation', errors: ['phones[0]: numéro de téléphone invalide', 'phones[1]: numéro de téléphone invalide'] },
        added: { status: 200, message: 'succès', data: { added: 1, already: 0 } },
        listed: {
          status: 200,
          message: 'succès',
          data: {
            items: [{ id: expect.any(String), phone: '+2250707070710', source: 'api', keyword: null, sender_id: null, created_by: tenant.userId, created_at: expect.any(String) }],
            next_cursor: null,
            has_more: false,
          },
        },
        removed: { status: 200, message: 'success' },
        gone: { status: 404, message: 'Non trouvé', errors: ["phone: ce numéro n'est pas sur la liste des désinscrits"] },
        kept: { status: 409, message: 'transition_invalide', errors: ['phone: seul le destinataire peut se réabonner (START)'] },
      });
      const event = { id: randomUUID(), type: 'contact.opted_out', created_at: '2026-11-22T08:00:00.000Z', api_version: 'v1', data: { phone: '+2250707070710', source: 'api', keyword: null, contact_id: null, sandbox: false, at: '2026-11-22T08:00:00.000Z' } };
      expect(client.contactEventSummary(event)).toBe('contact.opted_out +2250707070710 api - live 2026-11-22T08:00:00.000Z');
    });

    it('reads the inbox with its filters, and an sms.received event', async () => {
      const tenant = await createTenant(t);
      await t.admin.addLocalNumber(tenant.accountId, '+2250102039999');
      const api = new client.ApiClient(baseUrl, tenant.apiKey);
      const inbound = t.app.get(InboundMessages);
      for (const text of ['Bonjour', 'Stop', 'STOP merci']) {
        await inbound.receive({ provider: 'smpp', providerId: null, from: '+2250707070720', to: '+2250102039999', text, encoding: 'GSM7' });
      }

      expect(await client.readInbox(api, '+2250707070720')).toEqual({
        stops: [{ from: '+2250707070720', to: '+2250102039999', message: 'Stop', message_encoding: 'GSM7', keyword: 'STOP' }],
        page: { count: 1, has_more: true, next_cursor: 'string' },
        refused: { status: 400, message: 'erreur_de_validation', errors: [expect.stringMatching(/^keyword: doit valoir STOP, /)] },
      });
      const event = {
        id: randomUUID(),
        type: 'sms.received',
        created_at: '2026-11-22T08:00:00.000Z',
        api_version: 'v1',
        data: { id: randomUUID(), from: '+2250707070720', to: '+2250102039999', message: 'Stop', message_encoding: 'GSM7', keyword: 'STOP', received_at: '2026-11-22T08:00:00.000Z' },
      };
      expect(client.inboundEventSummary(event)).toBe('sms.received +2250707070720 > +2250102039999 STOP GSM7');
    });

    it('looks up numbers once under an Idempotency-Key, reads the answer and the lot, and an hlr.completed event', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);

      expect(await client.lookUpNumbers(api, ['+221771234567', '+22107'], () => t.drain(HLR_QUEUE))).toEqual({
        batch: { count: 1, amount: 10, rejected: [{ number: '+22107', reason: 'numero_invalide' }], replayed: true },
        lookup: { number: '+221771234567', status: 'completed', valid: true, reachable: 'unknown', country: 'SN', mcc: '608', mnc: '01', network_name: 'Orange Sénégal', provider: 'local' },
        lot: ['+221771234567'],
        missing: { status: 404, message: 'Non trouvé', errors: ['id: aucune recherche HLR pour cet identifiant ou ce lot'] },
      });
      const event = {
        id: randomUUID(),
        type: 'hlr.completed',
        created_at: '2026-11-22T08:00:01.000Z',
        api_version: 'v1',
        data: (await t.http().get('/v1/hlr?limit=1').set('Authorization', tenant.auth).expect(200)).body.data.items[0],
      };
      expect(client.hlrEventSummary(event)).toBe('hlr.completed +221771234567 completed unknown Orange Sénégal -');
    });

    it('builds an address book: a group, contacts, a bulk upsert and members, then reads and trims it', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);

      const book = await client.buildAddressBook(api);

      expect(book).toEqual({
        group: { name: 'Clients fidèles', contact_count: 0 },
        taken: { status: 409, message: 'deja_existant', errors: [expect.stringMatching(/^phone: un contact existe déjà \(id /)] },
        batch: { created: 1, updated: 0, skipped: 0, errors: [{ index: 1, errors: [expect.stringMatching(/^phone: /)] }] },
        added: { added: 2, already_member: 0, created_contacts: 1, rejected: [] },
        contact: { name: 'Awa Koné', email: null, attributes: { ville: 'Abidjan' }, group_ids: [expect.any(String)], opted_out: false },
        found: ['Awa Koné'],
        pages: [['+33612345678', '+221771234567'], ['+2250707070707']],
        removed: 1,
        deleted: 'success',
        groups: [{ name: 'Clients fidèles', contact_count: 2 }],
      });
    });

    it('sends to a group and a number, schedules a lot and cancels it', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);
      const sendAt = new Date(t.clock.now().getTime() + 24 * 3600 * 1000).toISOString();

      expect(await client.sendToGroupAndCancelALot(api, sendAt)).toEqual({
        sent: { count: 2, amount: 5.25, to: ['+2250707070707', '+221771234568'] },
        scheduled: { scheduled: true, statuses: ['scheduled', 'scheduled'] },
        cancelled: { cancelled: 2, refunded: 5.25, balance: 994.75 },
        again: { status: 409, message: 'transition_invalide', errors: ['status: message déjà annulé'] },
      });
    });

    it('sets a low-balance alert, reads the balance and pages through the ledger; a receiver reads balance.low', async () => {
      const tenant = await createTenant(t, { balance: '1000.00' });
      const api = new client.ApiClient(baseUrl, tenant.apiKey);
      // subscribed without the URL check (private addresses are refused here): the event is read where it is stored
      await t.database.run((sql) =>
        sql.run("INSERT INTO account_webhook (account_id, url, events, updated_at) VALUES (?, 'https://hooks.example.com/balance', ',balance.low,', ?)", [
          tenant.accountId,
          t.clock.now(),
        ]),
      );

      const seen = await client.watchTheBalance(api, to);

      expect(seen).toEqual({
        refused: { status: 400, message: 'erreur_de_validation', errors: ['threshold: doit être un montant entre 0 et 1000000000 avec au plus 2 décimales'] },
        balance: { balance: 997.5, currency: 'XOF', low_balance_threshold: 999 },
        pages: [
          [{ type: 'debit', amount: -2.5, balance_after: 997.5, reference_type: 'otp', reference_id: seen.sent, description: "Envoi d'un code OTP" }],
          [{ type: 'opening', amount: 1000, balance_after: 1000, reference_type: 'admin', reference_id: null, description: "Solde d'ouverture" }],
        ],
        more: [true, false],
        sent: expect.any(String),
        foreignCursor: { status: 400, message: 'erreur_de_validation', errors: ['cursor: curseur invalide'] },
      });
      const events = await t.database.run((sql) =>
        sql.all<{ body: string }>("SELECT body FROM webhook_event WHERE account_id = ? AND type = 'balance.low'", [tenant.accountId]),
      );
      expect(events.map((event) => client.balanceEventSummary(JSON.parse(event.body)))).toEqual(['balance.low 997.5 XOF < 999']);
    });

    it('reads its usage by week', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);
      await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: '+2250707070707', message: 'Bonjour' }).expect(200);
      await t.deliver();
      const now = t.clock.now().getTime();

      expect(await client.readUsage(api, new Date(now - 86_400_000).toISOString(), new Date(now + 86_400_000).toISOString())).toEqual({
        messages: 1,
        amount: 2.5,
        weeks: true,
        rate: 0,
      });
    });

    it('runs a campaign: drafts, edits, launches once per key, is refused an edit and a deletion, cancels; deletes a draft; a receiver reads campaign.*', async () => {
      const api = new client.ApiClient(baseUrl, (await createTenant(t)).apiKey);

      expect(await client.runACampaign(api, ['+2250707070731', '+2250707070732'], () => t.drain(CAMPAIGN_QUEUE))).toEqual({
        draft: { name: 'Soldes de mars', status: 'draft', amount: 0 },
        launched: { status: 'running', amount: 5, recipients: 2, replayed: true },
        running: { recipients: 2, handedOver: 2, cancelled: 0 },
        frozen: { status: 409, message: 'transition_invalide', errors: ['status: la campagne est déjà lancée'] },
        kept: { status: 409, message: 'transition_invalide', errors: ['status: la campagne est déjà lancée'] },
        cancelled: { status: 'cancelled', cancel_reason: 'Stock épuisé', refunded: 0 },
        listed: ['Soldes de mars'],
        deleted: { status: 200, message: 'success', gone: 'Campagne non trouvée' },
      });
      const event = {
        id: randomUUID(),
        type: 'campaign.completed',
        created_at: '2026-11-22T08:00:00.000Z',
        api_version: 'v1',
        data: {
          id: randomUUID(),
          name: 'Soldes de mars',
          status: 'done',
          lot: '01JD2X7R8Q4M6N0P2R4T6V8X0Z',
          recipients: 2,
          amount: 5,
          refunded: 0,
          started_at: '2026-11-22T08:00:00.000Z',
          completed_at: '2026-11-22T08:00:05.000Z',
          cancelled_at: null,
          cancel_reason: null,
          sandbox: false,
        },
      };
      expect(client.campaignEventSummary(event)).toBe('campaign.completed Soldes de mars done 2');
    });

    it('sends a lot, pages through its messages, narrows them with filters and reads its progress', async () => {
      const api = new client.ApiClient(baseUrl, (await createTenant(t)).apiKey);

      // held: the lot's messages stay pending while they are read
      expect(await t.withDeliveryPaused(() => client.followALot(api, 'commandes-du-jour'))).toEqual({
        pages: [['+221771234567', '+2250707070702'], ['+2250707070701']],
        narrowed: [{ to: '+221771234567', lot: 'commandes-du-jour', external_id: 'commande-7', type: 'sms', sandbox: false }],
        refused: {
          status: 400,
          message: 'erreur_de_validation',
          errors: ['status: doit valoir scheduled, pending, sent, delivered, undelivered, failed, cancelled, ou plusieurs séparés par des virgules'],
        },
        progress: { count: 3, amount: 7.75, by_status: { scheduled: 0, pending: 3, sent: 0, delivered: 0, undelivered: 0, failed: 0, cancelled: 0 }, campaign_id: null },
        missing: { status: 404, message: 'Non trouvé', errors: ['lot: aucun SMS pour ce lot'] },
      });
    });

    it('requests a sender ID, is refused making it the default while pending, and withdraws it', async () => {
      const api = new client.ApiClient(baseUrl, (await createTenant(t)).apiKey);

      expect(await client.requestSenderId(api)).toEqual({
        requested: { name: 'MONAPP', status: 'pending', is_default: false, countries: ['CI'], reviewed_at: null },
        pending: ['MONAPP'],
        refused: { status: 409, message: 'transition_invalide', errors: ['status: seul un expéditeur approuvé peut être celui par défaut'] },
        withdrawn: 'success',
      });
    });

    it('reads the error envelopes of an expired code, an empty balance and a wrong key', async () => {
      const funded = await createTenant(t);
      const broke = await createTenant(t, { balance: '0.00' });

      // handed over before the clock moves: a code still undelivered at expiry is failed instead (SPEC §6)
      const deliverThenExpire = async () => {
        await t.deliver();
        t.clock.advance(61);
      };
      expect(await client.verifyTooLate(new client.ApiClient(baseUrl, funded.apiKey), '+2250707070708', deliverThenExpire)).toEqual({
        status: 410,
        message: 'code_otp_expir',
        errors: ['code: le code OTP a expiré'],
      });
      expect(await client.sendWithoutFunds(new client.ApiClient(baseUrl, broke.apiKey), to)).toEqual({
        status: 402,
        message: 'solde_insuffisant',
        data: { costs: 2.5, balance: 0 },
      });
      expect(await client.readAccount(new client.ApiClient(baseUrl, 'mk_live_unknown'))).toEqual({ status: 401, message: 'Non autorisé' });
    });

    it('imports a CSV file and reads the job with its errors per row, then a job that does not exist', async () => {
      const tenant = await createTenant(t);
      const api = new client.ApiClient(baseUrl, tenant.apiKey);

      expect(await client.importContacts(api, 'phone;name\n+2250707070701;Awa Koné\nfaux;Bakary\n', () => t.drain(CONTACT_IMPORT_QUEUE))).toEqual({
        queued: { status: 202, message: 'succès', data: { id: expect.any(String), status: 'pending' } },
        read: {
          status: 200,
          message: 'succès',
          data: {
            status: 'completed',
            rows: 2,
            created: 1,
            updated: 0,
            duplicates: 0,
            invalid: 1,
            errors: [{ row: 3, errors: ['phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'] }],
            group_id: null,
            finished_at: expect.any(String),
          },
        },
        missing: { status: 404, message: 'Non trouvé', errors: ['id: aucun import pour cet identifiant'] },
      });
    });
  });
});
