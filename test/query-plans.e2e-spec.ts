import { DataSource } from 'typeorm';
import type { Statement } from '../src/database/statements.js';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { explainable, plansOf, recordStatements, sortingPlans } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { WEBHOOK_QUEUE } from '../src/webhook/webhook-events.js';
import { newId } from '../src/common/ids.js';
import { CONTACT_IMPORT_QUEUE } from '../src/contact-import/contact-import.worker.js';

/** The indexes through which GET /v1/sms/out reads a page's keys, one per filter that can lead. */
const LIST_INDEXES = [
  'IDX_message_out_account_id',
  'IDX_message_out_account_status',
  'IDX_message_out_account_lot',
  'IDX_message_out_account_external',
  'IDX_message_out_account_campaign',
  'IDX_message_out_account_contact',
  'IDX_message_out_account_to',
];
const pageKeysThrough = (index: string) => new RegExp(`\\bAS page_key FROM message_out AS m (FORCE INDEX \\(|INDEXED BY )${index}\\b`);

/** The statements of the hot paths, recognised by table and shape among those the service ran. */
const HOT_QUERIES: Array<[name: string, shape: RegExp]> = [
  ['the API key by hash (authentication)', /\bFROM api_key\b.*\bkey_hash = \?/s],
  ['the idempotency record', /\bFROM idempotency_record\b/],
  ['the sender by name', /\bFROM sender\b.*\bactive_key = \?/s],
  ['the default sender', /\bFROM sender\b.*\bis_default\b/s],
  ['the price of a destination', /\bFROM message_price\b/],
  ['the latest OTP of a recipient, locked (send supersedes it, verify checks it)', /\bFROM otp_recipient\b.*\bJOIN otp\b/s],
  ['the sends to a recipient in the rate window', /^SELECT\b.*\bFROM otp\b.*\brecipient = \?/s],
  ["the sends to a recipient among its prefix's, summing the prefix's other sends (fraud guard)", /\bAS fraud_prefix_sends\b.*\bFROM otp AS o\b.*\bprefix = \?/s],
  ["the distinct numbers of a prefix whose sends reached the threshold (fraud guard)", /^SELECT \(SELECT COUNT\(\*\) FROM \(SELECT DISTINCT recipient\b/],
  ['the supersession of the earlier codes', /^UPDATE otp\b.*\brecipient = \?/s],
  ['the failed verifications of a recipient in the window', /^SELECT\b.*\bFROM verification_failure\b/s],
  ['the updates of an OTP by uniq_id (wrong attempt, verified, e-mail sent)', /^UPDATE otp\b.*\bWHERE uniq_id = \?/s],
  ['the balance debit', /^UPDATE account SET balance = balance - /],
  ['the SMS by uniq_id, with its contact (GET /v1/sms/out/{id})', /\bFROM message_out m JOIN account\b.*\bm\.uniq_id = \?/s],
  ['the SMS by lot, with its contact (GET /v1/sms/out/{id})', /\bFROM message_out m JOIN account\b.*\bm\.lot = \?/s],
  ...LIST_INDEXES.map((index): [string, RegExp] => [`a page of SMS keys read through ${index} (GET /v1/sms/out)`, pageKeysThrough(index)]),
  ['the account of a page of SMS', /^SELECT a\.name AS company_name\b.*\bFROM account a WHERE a\.id = \?/s],
  ['the counts of a lot by status (GET /v1/sms/lot/{lot})', /\bFROM message_out AS m\b.*\bGROUP BY m\.status\b/s],
  ['the outbox claim of a lane', /^SELECT\b.*\bFROM outbox\b.*\bavailable_at <= \?.*\bbulk = \?/s],
  ['the SMS by provider id (delivery receipt)', /\bFROM message_part\b/],
  ['the kept delivery receipts by provider id', /\bFROM delivery_receipt\b.*\bprovider_id IN\b/s],
  ['the messages of a settled batch, for their webhook events', /\bFROM message_out m LEFT JOIN sender s\b.*\bm\.uniq_id IN\b/s],
  ['the webhook event claim', /^SELECT\b.*\bFROM webhook_event\b.*\bavailable_at <= \?/s],
  ['the webhooks of the accounts of a batch', /\bFROM account_webhook WHERE account_id IN\b/],
  ["the latest webhook event of an SMS (resend)", /\bFROM webhook_event WHERE subject_id = \?/],
  ['the numbers of a request already on the opt-out list', /^SELECT phone FROM opt_out WHERE account_id = \? AND sandbox = \? AND phone IN\b/],
  ['the opt-out entries just written, read back', /^SELECT phone FROM opt_out WHERE id IN\b/],
  ['the contacts of the numbers an opt-out event names', /^SELECT id, phone FROM contact WHERE account_id = \? AND phone IN\b/],
  ['a page of the opt-out list (GET /v1/opt-out)', /\bFROM opt_out WHERE account_id = \? AND sandbox = \?.*\bORDER BY id DESC\b/s],
  ['the re-subscription of a number (DELETE /v1/opt-out)', /^DELETE FROM opt_out\b/],
  ['the entry of a number that could not be re-subscribed', /^SELECT source FROM opt_out\b/],
  ['the import job claim', /^SELECT\b.*\bFROM contact_import\b.*\bavailable_at <= \?/s],
  ['the file of an import job', /\bFROM contact_import_file WHERE import_id = \?/],
  ['an import job by id (GET /v1/contact/import/{id})', /\bFROM contact_import WHERE id = \? AND account_id = \?/],
  ["the account's import jobs (GET /v1/contact/import)", /\bFROM contact_import WHERE account_id = \?/],
  ['the contacts of an import chunk by phone, locked', /\bFROM contact WHERE account_id = \? AND phone IN\b/],
  ['the numbers of an import chunk on the opt-out list', /\bFROM opt_out WHERE account_id = \? AND sandbox = \? AND phone IN\b/],
];

/**
 * Rows copied from the OTPs into the other searched tables, so that each holds
 * hundreds (MariaDB reads a table of a few rows whole, index or not). The
 * outbox entries wait for a retry far ahead: the dispatcher leaves them be.
 */
const FILL = [
  'INSERT INTO verification_failure (account_id, recipient, created_at) SELECT account_id, recipient, created_at FROM otp',
  "INSERT INTO delivery_receipt (provider, provider_id, provider_status, received_at) SELECT 'smpp', uniq_id, 'ENROUTE', created_at FROM otp",
  'INSERT INTO contact (id, account_id, phone, created_at) SELECT uniq_id, account_id, recipient, created_at FROM otp',
  `INSERT INTO outbox (kind, record_id, account_id, amount, payload, is_test, attempts, available_at, created_at)
   SELECT 'sms', uniq_id, account_id, 0, '', 0, 1, '2999-01-01 00:00:00', created_at FROM otp`,
  `INSERT INTO webhook_event (id, account_id, type, subject_id, sequence, body, state, attempts, available_at, created_at)
   SELECT uniq_id, account_id, 'sms.sent', uniq_id, 1, '{}', 'delivered', 1, NULL, created_at FROM otp`,
  `INSERT INTO account_webhook (account_id, url, events, updated_at) SELECT id, NULL, '', created_at FROM account`,
  `INSERT INTO contact_import (id, account_id, sandbox, status, on_duplicate, attempts, available_at, created_at)
   SELECT uniq_id, account_id, 0, 'completed', 'skip', 1, NULL, created_at FROM otp`,
  "INSERT INTO contact_import_file (import_id, content) SELECT uniq_id, 'phone' FROM otp",
  'INSERT INTO contact_group (id, account_id, name, name_key, created_at) SELECT uniq_id, account_id, uniq_id, uniq_id, created_at FROM otp',
  "INSERT INTO opt_out (id, account_id, sandbox, phone, source, created_at) SELECT uniq_id, account_id, 0, recipient, 'api', created_at FROM otp",
];
const SEARCHED_TABLES = [
  'otp', 'otp_recipient', 'message_out', 'message_part', 'verification_failure', 'delivery_receipt', 'contact', 'outbox', 'webhook_event', 'account_webhook',
  'contact_import', 'contact_import_file', 'contact_group', 'opt_out',
];

/** The OTP's indexes led by the account: the rate window's own, the list's, and the fraud guard's counts'. */
const OTP_ACCOUNT_INDEXES = [
  'IDX_otp_account_recipient_created',
  'IDX_otp_account_mode_id',
  'IDX_otp_account_mode_id_status',
  'IDX_otp_fraud_ip',
  'IDX_otp_fraud_user',
  'IDX_otp_fraud_prefix',
  'IDX_otp_fraud_country',
];

/**
 * Secondary indexes hot statements rely on, dropped at the end to show that the
 * checks above see their absence (a statement naming its index fails to plan). A message's lot, or an OTP's recipient, is
 * sought without its index through any other index led by the account, so all of them go.
 */
const SECONDARY_INDEXES: Array<[table: string, indexes: string, hotQuery: string]> = [
  ['otp', OTP_ACCOUNT_INDEXES.join(', '), 'the sends to a recipient in the rate window'],
  ['message_out', LIST_INDEXES.join(', '), 'the SMS by lot, with its contact (GET /v1/sms/out/{id})'],
  ['outbox', 'IDX_outbox_lane', 'the outbox claim of a lane'],
  ['delivery_receipt', 'IDX_delivery_receipt_provider_id', 'the kept delivery receipts by provider id'],
  ['webhook_event', 'IDX_webhook_event_available', 'the webhook event claim'],
  ['contact_import', 'IDX_contact_import_available', 'the import job claim'],
];


describe('query plans of the hot paths', () => {
  let smsc: FakeSmsc;
  let receiver: WebhookReceiver;
  let t: TestApp;
  /** Every read, update and delete the service ran while serving the requests below. */
  let ran: Statement[];
  const ranLike = (shape: RegExp) => ran.filter((statement) => shape.test(statement.query));
  const withoutScans = (statements: Statement[]) => statements.map((statement) => ({ query: statement.query, scans: [] }));

  beforeAll(async () => {
    smsc = new FakeSmsc();
    await smsc.start();
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const post = (tenant: Tenant, path: string, body: object, headers: Record<string, string> = {}) =>
      t.http().post(path).set('Authorization', tenant.auth).set(headers).send(body);

    // another tenant fills the tables, sending to other destinations
    const filler = await createTenant(t, { balance: '100000.00' });
    for (let i = 0; i < 600; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => post(filler, '/v1/otp/send', smsBody(`+22177${1_000_000 + i + j}`)).expect(200)));
    }
    await t.deliver();
    for (const fill of FILL) await t.database.run((sql) => sql.run(fill));

    // a tenant not seen yet: its key, senders and prices come from the database, not from a cache
    const subscriber = await createTenant(t);
    const awa = await t.admin.createContact(subscriber.accountId, { name: 'Awa', phone: '+2250707070707' });
    await t.database.run((sql) => sql.run('DELETE FROM account_webhook WHERE account_id = ?', [subscriber.accountId]));
    await t
      .http()
      .put('/v1/account/webhook')
      .set('Authorization', subscriber.auth)
      .send({ url: receiver.url('/plans'), events: ['sms.sent', 'sms.delivered'] })
      .expect(200);
    const { id: groupId } = await t.admin.createGroup(subscriber.accountId, 'Importés');
    // a key not used yet: it is read from the database, not from a cache
    const { api_key } = await t.admin.createApiKey(subscriber.userId);
    const tenant = { ...subscriber, auth: `Bearer ${api_key}` };
    // the second number of a prefix crosses its threshold: its distinct numbers are counted (in monitor mode, the default)
    await t.http().put('/v1/fraud/policy').set('Authorization', subscriber.auth).send({ thresholds: { prefix_per_hour: 1 } }).expect(200);
    const recording = recordStatements(t.app.get(DataSource));
    const sent = await t.withDeliveryPaused(async () => {
      const sms = await post(tenant, '/v1/otp/send', smsBody('+2250707070707', { sender: 'DEMO' }), { 'Idempotency-Key': 'plans' }).expect(200);
      await post(tenant, '/v1/otp/send', emailBody('awa@example.com')).expect(200);
      await smsc.sendReceipt(String(1000 + smsc.submits.length + 1), 'DELIVRD'); // ahead of its message: the second SMS handed over
      await post(tenant, '/v1/otp/send', smsBody('+2250707070708')).expect(200);
      // a second code to the number: it supersedes the first
      await post(tenant, '/v1/otp/send', smsBody('+2250707070708')).expect(200);
      await post(tenant, '/v1/sms/send', { to: ['+2250707070710', '+2250707070711'], message: 'Votre colis arrive.' }).expect(200);
      await post(tenant, '/v1/otp/verify', { to: '+2250707070707', code: sms.body.data.code === '000000' ? '111111' : '000000' }).expect(400);
      await post(tenant, '/v1/otp/verify', { to: '+2250707070707', code: sms.body.data.code }).expect(200);
      return sms.body.data;
    });
    await t.deliver();
    await smsc.sendReceipt(smsc.submits.find((submit) => submit.destinationAddr === '2250707070707')!.messageId, 'DELIVRD');
    const get = (id: string) => t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth).expect(200);
    const { lot, status } = (await get(sent.uniq_id)).body.data;
    await get(lot);
    await t.drain(WEBHOOK_QUEUE);
    await until(() => receiver.received.length, (count) => count >= 3);
    await t.http().post(`/v1/sms/out/${sent.uniq_id}/webhook/resend`).set('Authorization', tenant.auth).expect(200);
    await t.drain(WEBHOOK_QUEUE);
    await optOutRequests(tenant);
    const imported = await t
      .http()
      .post(`/v1/contact/import?group_id=${groupId}&on_duplicate=update`)
      .set('Authorization', tenant.auth)
      .set('Content-Type', 'text/csv')
      .send('phone,name,opted_out\n+2250707070707,Awa Koné,false\n+2250707070799,Bakary,true\n')
      .expect(202);
    await t.drain(CONTACT_IMPORT_QUEUE);
    const job = await t.http().get(`/v1/contact/import/${imported.body.data.id}`).set('Authorization', tenant.auth).expect(200);
    await t.http().get('/v1/contact/import?limit=5').set('Authorization', tenant.auth).expect(200);
    await smsListRequests(tenant, { lot, contactId: awa.contact_id });
    recording.stop();
    expect(job.body.data).toEqual(expect.objectContaining({ status: 'completed', created: 1, updated: 1 }));
    expect(status).toBe('delivered');
    ran = explainable(recording.statements);

    // InnoDB keeps statistics up to date by itself, a little later; SQLite has none unless asked (the service never asks)
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all(`ANALYZE TABLE ${SEARCHED_TABLES.join(', ')}`));
  }, 60_000);
  /** GET /v1/sms/out led by each filter that can lead, a second page, a page of several statuses, and a lot's summary. */
  async function smsListRequests(tenant: Tenant, { lot, contactId }: { lot: string; contactId: string }): Promise<void> {
    const list = (query: Record<string, string>) => t.http().get('/v1/sms/out').query(query).set('Authorization', tenant.auth).expect(200);
    const first = await list({ limit: '1' });
    await list({ limit: '1', cursor: first.body.data.next_cursor });
    await list({ status: 'sent,delivered', type: 'otp' });
    const day = 86_400_000;
    const now = t.clock.now().getTime();
    await list({ status: 'delivered', created_from: new Date(now - 300 * day).toISOString(), created_to: new Date(now + day).toISOString() });
    await list({ lot, status: 'delivered' });
    await list({ external_id: 'commande-1' });
    await list({ campaign_id: '0193a3c2-0000-7000-8000-00000000ca01', sender_id: tenant.senderId });
    await list({ contact_id: contactId });
    await list({ to: '+2250707070708', type: 'otp' });
    await t.http().get(`/v1/sms/lot/${lot}`).set('Authorization', tenant.auth).expect(200);
  }

  /** The opt-out routes: a number with a contact and one without listed, a page read by filters, one re-subscribed and a STOP kept. */
  async function optOutRequests(tenant: Tenant): Promise<void> {
    await t.database.run((sql) =>
      sql.run("INSERT INTO opt_out (id, account_id, sandbox, phone, source, keyword, created_at) VALUES (?, ?, 0, '+2250707070709', 'sms_keyword', 'STOP', ?)", [
        newId(t.clock.now()),
        tenant.accountId,
        t.clock.now(),
      ]),
    );
    const optOut = () => t.http().get('/v1/opt-out').set('Authorization', tenant.auth);
    await t.http().post('/v1/opt-out').set('Authorization', tenant.auth).send({ phones: ['+2250707070707', '+2250707070708'] }).expect(200);
    const first = await optOut().query({ limit: '1', source: 'api', created_from: '2000-01-01T00:00:00Z' }).expect(200);
    await optOut().query({ limit: '1', source: 'api', created_from: '2000-01-01T00:00:00Z', cursor: first.body.data.next_cursor }).expect(200);
    await optOut().expect(200);
    await t.http().delete('/v1/opt-out/%2B2250707070708').set('Authorization', tenant.auth).expect(200);
    await t.http().delete('/v1/opt-out/%2B2250707070709').set('Authorization', tenant.auth).expect(409);
  }

  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
    await receiver?.stop();
  });

  it.each(HOT_QUERIES)('seeks %s through an index', async (_, shape) => {
    const statements = ranLike(shape);
    expect(statements.length).toBeGreaterThan(0);
    expect(await plansOf(t.app.get(DataSource), statements)).toEqual(withoutScans(statements));
  });

  it('claimed in both lanes of the outbox', () => {
    const claims = ranLike(new Map(HOT_QUERIES).get('the outbox claim of a lane')!);
    expect(new Set(claims.map((claim) => Boolean(Number(claim.params[1]))))).toEqual(new Set([false, true]));
  });

  it('reads the keys of every page of SMS in key order, each filter with several values through one index range per value', async () => {
    const pages = LIST_INDEXES.flatMap((index) => ranLike(pageKeysThrough(index)));
    const sorted = await sortingPlans(t.app.get(DataSource), pages);

    expect(sorted).toEqual(pages.map((statement) => ({ query: statement.query, sorts: false })));
    expect(ranLike(/UNION ALL SELECT page_key FROM \(SELECT m\.uniq_id AS page_key FROM message_out AS m (FORCE INDEX \(|INDEXED BY )IDX_message_out_account_status\b/)).not.toEqual([]);
    expect(ranLike(/IDX_message_out_account_contact\b.*UNION ALL.*IDX_message_out_account_to\b/s)).not.toEqual([]);
  });

  it('seeks through an index in every other statement of those requests and deliveries', async () => {
    const others = ran.filter((statement) => !HOT_QUERIES.some(([, shape]) => shape.test(statement.query)));
    expect(others.length).toBeGreaterThan(0);
    expect(await plansOf(t.app.get(DataSource), others)).toEqual(withoutScans(others));
  });

  // last: it drops indexes
  it.each(SECONDARY_INDEXES)('sees %s read whole once %s are dropped, in %s', async (table, indexes, hotQuery) => {
    const statements = ranLike(new Map(HOT_QUERIES).get(hotQuery)!);
    const dropped = indexes.split(', ');
    for (const index of dropped) await t.database.run((sql) => sql.run(sql.dialect === 'mysql' ? `DROP INDEX ${index} ON ${table}` : `DROP INDEX ${index}`));
    for (const statement of statements) {
      // a statement that names its index cannot be planned without it
      if (dropped.some((index) => statement.query.includes(index))) {
        await expect(plansOf(t.app.get(DataSource), [statement])).rejects.toThrow(/no such index|doesn't exist/);
        continue;
      }
      const [{ query, scans }] = await plansOf(t.app.get(DataSource), [statement]);
      expect({ query, scanned: scans.length > 0 }).toEqual({ query, scanned: true });
    }
  });
});
