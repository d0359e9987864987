import { Webhook } from 'standardwebhooks';
import smpp from 'smpp';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0003';
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const RECIPIENT_ONLY = { status: 409, message: 'transition_invalide', errors: ['phone: seul le destinataire peut se réabonner (START)'] };
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const UCS2 = 0x08;

let writers = 0;
/** A fresh writer's number: `+22507071` and 5 digits. */
const nextWriter = () => `+22507071${String(++writers).padStart(5, '0')}`;
let locals = 0;
/** A fresh local number: `+22501020` and 5 digits. */
const nextLocal = () => `+22501020${String(++locals).padStart(5, '0')}`;

interface MessageIn {
  id: string;
  from: string;
  to: string;
  message: string;
  message_encoding: string;
  keyword: string | null;
  received_at: string;
}

/** The service with the SMPP provider, bound to an SMSC of its own. */
async function startBoundToSmsc(env: Record<string, string>): Promise<{ smsc: FakeSmsc; t: TestApp }> {
  const smsc = new FakeSmsc();
  await smsc.start();
  const t = await startTestApp({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, ...env });
  await until(
    () => smsc.binds,
    (binds) => binds > 0,
  );
  return { smsc, t };
}

describe('inbound SMS', () => {
  let smsc: FakeSmsc;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    ({ smsc, t } = await startBoundToSmsc({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000', METRICS_TOKEN }));
  });
  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
    await receiver?.stop();
    process.env.METRICS_TOKEN = '';
  });

  /** An account with a local number of its own, on which it receives. */
  async function tenantWithNumber(): Promise<Tenant & { number: string }> {
    const tenant = await createTenant(t);
    const number = nextLocal();
    await t.admin.addLocalNumber(tenant.accountId, number);
    return { ...tenant, number };
  }

  /** The SMSC hands over a message written to `to`; the service acknowledges it once it is stored. */
  async function write(from: string, to: string, text: string, options: { dataCoding?: number } = {}) {
    expect(await smsc.sendMo(from, to, text, options)).toBe(smpp.ESME_ROK);
  }

  const list = (tenant: Tenant, query: Record<string, string> = {}) => t.http().get('/v1/sms/in').query(query).set('Authorization', tenant.auth);
  const items = async (tenant: Tenant, query: Record<string, string> = {}) => (await list(tenant, query).expect(200)).body.data.items as MessageIn[];
  const optOutsOf = async (tenant: Tenant) =>
    (await t.http().get('/v1/opt-out').query({ limit: '100' }).set('Authorization', tenant.auth).expect(200)).body.data.items as Array<Record<string, unknown>>;
  const bulkSend = (tenant: Tenant, to: string[]) => t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to, message: 'Promo -20 % ce week-end' });
  const scrape = async () => (await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
  const inboundCount = (text: string, outcome: string) => Number(new RegExp(`^inbound_sms_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

  describe('keywords', () => {
    it('reads a whole-message keyword trimmed, case- and accent-insensitive, in any coding, and stores every message with it or null', async () => {
      const tenant = await tenantWithNumber();
      const cases: Array<[text: string, keyword: string | null, encoding: string, dataCoding?: number]> = [
        ['STOP', 'STOP', 'GSM7'],
        ['Stop ', 'STOP', 'GSM7'],
        ['  stop\n', 'STOP', 'GSM7'],
        ['ARRÊT', 'ARRET', 'LATIN1'],
        ['arrêter', 'ARRETER', 'UCS2', UCS2],
        ['Désinscrire', 'DESINSCRIRE', 'GSM7'],
        ['unsubscribe', 'UNSUBSCRIBE', 'GSM7'],
        ['STOP PLEASE', null, 'GSM7'],
        ['STOP 12345', null, 'GSM7'],
        ['Bonjour, je passe demain', null, 'GSM7'],
        ['aide', 'AIDE', 'GSM7'],
        ['Oui', 'OUI', 'GSM7'],
      ];
      const writersOf = cases.map(() => nextWriter());
      for (const [index, [text, , , dataCoding]] of cases.entries()) await write(writersOf[index]!, tenant.number, text, { dataCoding });

      const stored = (await items(tenant, { limit: '100' })).reverse();

      expect(stored).toEqual(
        cases.map(([text, keyword, encoding], index) => ({
          id: expect.any(String),
          from: writersOf[index],
          to: tenant.number,
          message: text,
          message_encoding: encoding,
          keyword,
          received_at: expect.stringMatching(TIME),
        })),
      );
      // the seven opt-out keywords listed their writers; multi-word messages, HELP and OUI (not listed) changed nothing
      const listed = await optOutsOf(tenant);
      expect(listed.map((entry) => entry.phone).sort()).toEqual(writersOf.slice(0, 7).sort());
      expect(listed.find((entry) => entry.phone === writersOf[3])).toEqual({
        id: expect.any(String),
        phone: writersOf[3],
        source: 'sms_keyword',
        keyword: 'ARRET',
        sender_id: null,
        created_by: null,
        created_at: expect.stringMatching(TIME),
      });
    });

    it('names the two-way numeric sender the STOP was written to, when the account has one', async () => {
      const tenant = await tenantWithNumber();
      const sender = await t.admin.createSender(tenant.accountId, tenant.number.slice(1));
      const from = nextWriter();

      await write(from, tenant.number, 'STOP');

      expect(await optOutsOf(tenant)).toEqual([expect.objectContaining({ phone: from, source: 'sms_keyword', keyword: 'STOP', sender_id: sender.sender_id })]);
    });
  });

  describe('opt-out and opt-in', () => {
    it('STOP: the next bulk send refuses the number as desinscrit and charges nothing for it, an OTP still reaches it; START: it is sent to again', async () => {
      const tenant = await tenantWithNumber();
      const from = nextWriter();
      const other = nextWriter();
      await write(from, tenant.number, 'STOP');

      const refused = (await bulkSend(tenant, [from, other]).expect(200)).body.data;
      expect(refused).toMatchObject({ count: 1, amount: 2.5, rejected: [{ to: from, reason: 'desinscrit' }] });
      expect(refused.messages.map((message: { to: string }) => message.to)).toEqual([other]);

      const otp = (await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(from)).expect(200)).body.data;
      await t.deliver();
      expect(smsc.submits.filter((submit) => submit.destinationAddr === from.slice(1)).map((submit) => submit.text)).toEqual([`Votre code est ${otp.code}`]);

      await write(from, tenant.number, 'Start');

      expect(await optOutsOf(tenant)).toEqual([]);
      const accepted = (await bulkSend(tenant, [from]).expect(200)).body.data;
      expect(accepted).toMatchObject({ count: 1, rejected: [] });
    });

    it('refuses an api DELETE of a STOP (409), and START by the recipient undoes even an api entry', async () => {
      const tenant = await tenantWithNumber();
      const stopped = nextWriter();
      const listedByApi = nextWriter();
      await write(stopped, tenant.number, 'STOP');
      await t.http().post('/v1/opt-out').set('Authorization', tenant.auth).send({ phones: [listedByApi] }).expect(200);

      const removal = await t.http().delete(`/v1/opt-out/${encodeURIComponent(stopped)}`).set('Authorization', tenant.auth);
      await write(listedByApi, tenant.number, 'START');

      expect(removal.status).toBe(409);
      expect(removal.body).toEqual(RECIPIENT_ONLY);
      expect((await optOutsOf(tenant)).map((entry) => entry.phone)).toEqual([stopped]);
    });

    it('changes the live list only: a sandbox key still sends to the number', async () => {
      const tenant = await tenantWithNumber();
      const from = nextWriter();
      await write(from, tenant.number, 'STOP');
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, auth: `Bearer ${api_key}` };

      const other = nextWriter();

      expect((await bulkSend(sandbox, [from, other]).expect(200)).body.data).toMatchObject({ count: 2, rejected: [] });
      expect((await bulkSend(tenant, [from, other]).expect(200)).body.data).toMatchObject({ count: 1, rejected: [{ to: from, reason: 'desinscrit' }] });
    });
  });

  describe('ownership', () => {
    it('drops and counts a message to a number no account has (a short code too), and one to a number two accounts share; stores nothing for them', async () => {
      const before = await scrape();
      const shared = nextLocal();
      const first = await createTenant(t);
      const second = await createTenant(t);
      await t.admin.addLocalNumber(first.accountId, shared);
      await t.admin.addLocalNumber(second.accountId, shared);
      const from = nextWriter();

      await write(from, nextLocal(), 'STOP');
      await write(from, '36123', 'STOP');
      await write(from, shared, 'STOP');

      const after = await scrape();
      expect(inboundCount(after, 'unowned') - inboundCount(before, 'unowned')).toBe(2);
      expect(inboundCount(after, 'shared') - inboundCount(before, 'shared')).toBe(1);
      const stored = await t.database.run((sql) => sql.all('SELECT id FROM message_in WHERE sender = ?', [from]));
      expect(stored).toEqual([]);
      const listed = await t.database.run((sql) => sql.all('SELECT id FROM opt_out WHERE phone = ?', [from]));
      expect(listed).toEqual([]);
    });

    it('counts the messages it stores', async () => {
      const tenant = await tenantWithNumber();
      const before = inboundCount(await scrape(), 'stored');
      await write(nextWriter(), tenant.number, 'Bonjour');
      expect(inboundCount(await scrape(), 'stored') - before).toBe(1);
    });
  });

  describe('GET /v1/sms/in', () => {
    it('pages newest first with a cursor, and filters by writer, keyword and creation time', async () => {
      const tenant = await tenantWithNumber();
      const awa = nextWriter();
      const koffi = nextWriter();
      await write(awa, tenant.number, 'Bonjour');
      await write(koffi, tenant.number, 'HELP');
      t.clock.advance(3600);
      const later = t.clock.now().toISOString();
      await write(awa, tenant.number, 'Merci');
      await write(koffi, tenant.number, 'Stop');
      await write(awa, tenant.number, 'Help');

      const first = (await list(tenant, { limit: '2' }).expect(200)).body;
      const second = (await list(tenant, { limit: '2', cursor: first.data.next_cursor }).expect(200)).body;
      const third = (await list(tenant, { limit: '2', cursor: second.data.next_cursor }).expect(200)).body;

      expect(first).toEqual({ status: 200, message: 'succès', data: { items: expect.any(Array), next_cursor: expect.any(String), has_more: true } });
      expect([...first.data.items, ...second.data.items, ...third.data.items].map((item: MessageIn) => item.message)).toEqual(['Help', 'Stop', 'Merci', 'HELP', 'Bonjour']);
      expect(third.data).toMatchObject({ next_cursor: null, has_more: false });
      expect((await items(tenant, { from: awa })).map((item) => item.message)).toEqual(['Help', 'Merci', 'Bonjour']);
      expect((await items(tenant, { from: awa.slice(1) })).map((item) => item.message)).toEqual(['Help', 'Merci', 'Bonjour']);
      expect((await items(tenant, { keyword: 'HELP' })).map((item) => item.message)).toEqual(['Help', 'HELP']);
      expect((await items(tenant, { keyword: 'HELP', from: koffi })).map((item) => item.message)).toEqual(['HELP']);
      expect((await items(tenant, { created_from: later })).map((item) => item.message)).toEqual(['Help', 'Stop', 'Merci']);
      expect((await items(tenant, { created_to: later })).map((item) => item.message)).toEqual(['HELP', 'Bonjour']);
    });

    it("shows an account its own messages only, and a sandbox key none", async () => {
      const tenant = await tenantWithNumber();
      const other = await tenantWithNumber();
      await write(nextWriter(), tenant.number, 'Pour le premier');
      await write(nextWriter(), other.number, 'Pour le second');
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);

      expect((await items(tenant)).map((item) => item.message)).toEqual(['Pour le premier']);
      expect((await items(other)).map((item) => item.message)).toEqual(['Pour le second']);
      expect((await list({ ...tenant, auth: `Bearer ${api_key}` }).expect(200)).body.data).toEqual({ items: [], next_cursor: null, has_more: false });
    });

    it.each([
      [{ from: 'pas un numéro' }, 'from: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'],
      [{ keyword: 'stop' }, 'keyword: doit valoir STOP, STOPALL, ARRET, ARRETER, DESABONNER, DESINSCRIRE, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, REVOKE, START, UNSTOP, YES, OUI, HELP, AIDE ou INFO'],
      [{ created_from: '2026-01-01T00:00:00' }, 'created_from: date ISO 8601 avec fuseau attendue'],
      [{ limit: '0' }, 'limit: doit être un entier compris entre 1 et 100'],
    ])('refuses %j with 400', async (query, error) => {
      const tenant = await createTenant(t);
      const res = await list(tenant, query as Record<string, string>);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(error));
    });

    it('refuses a cursor made with other filters', async () => {
      const tenant = await tenantWithNumber();
      for (const text of ['un', 'deux']) await write(nextWriter(), tenant.number, text);
      const cursor = (await list(tenant, { limit: '1' }).expect(200)).body.data.next_cursor;

      const res = await list(tenant, { limit: '1', keyword: 'STOP', cursor });

      expect(res.body).toEqual(invalid('cursor: curseur invalide'));
    });
  });

  describe('sms.received', () => {
    it('is signed and delivered to the account webhook with the message, beside contact.opted_out for a STOP', async () => {
      const tenant = await tenantWithNumber();
      const res = await t
        .http()
        .put('/v1/account/webhook')
        .set('Authorization', tenant.auth)
        .send({ url: receiver.url('/inbound'), events: ['sms.received', 'contact.opted_out'] })
        .expect(200);
      const secret = res.body.data.secret as string;
      const from = nextWriter();

      await write(from, tenant.number, 'ARRÊT');

      const hooks = await until(
        () => receiver.at('/inbound'),
        (received) => received.length >= 2,
      );
      const bodies = hooks.map((hook) => new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as Record<string, unknown>);
      const [stored] = await items(tenant);
      expect(bodies.find((body) => body.type === 'sms.received')).toEqual({
        id: hooks.find((hook) => hook.headers['webhook-event'] === 'sms.received')!.headers['webhook-id'],
        type: 'sms.received',
        created_at: expect.stringMatching(TIME),
        api_version: 'v1',
        data: { id: stored!.id, from, to: tenant.number, message: 'ARRÊT', message_encoding: 'LATIN1', keyword: 'ARRET', received_at: stored!.received_at },
      });
      expect(bodies.find((body) => body.type === 'contact.opted_out')).toMatchObject({
        data: { phone: from, source: 'sms_keyword', keyword: 'ARRET', contact_id: null, sandbox: false },
      });
    });
  });
});

describe('keyword confirmations (OPT_OUT_CONFIRMATION=true)', () => {
  let smsc: FakeSmsc;
  let t: TestApp;

  beforeAll(async () => {
    ({ smsc, t } = await startBoundToSmsc({ OPT_OUT_CONFIRMATION: 'true' }));
  });
  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
    process.env.OPT_OUT_CONFIRMATION = 'false';
  });

  it('answers STOP, START and HELP from the number written to, as a message of the account with no price, never debited; other messages get no answer', async () => {
    const tenant = await createTenant(t);
    const number = `+22501021${String(Date.now() % 100_000).padStart(5, '0')}`;
    await t.admin.addLocalNumber(tenant.accountId, number);
    const from = `+22507072${String(Date.now() % 100_000).padStart(5, '0')}`;
    const balance = async () => (await t.http().get('/v1/balance').set('Authorization', tenant.auth).expect(200)).body.data.balance as number;
    const before = await balance();

    for (const text of ['Stop ', 'STOP PLEASE', 'bonjour', 'start', 'Aide']) expect(await smsc.sendMo(from, number, text)).toBe(smpp.ESME_ROK);
    await t.deliver();

    const answers = await until(
      () => smsc.submits.filter((submit) => submit.destinationAddr === from.slice(1)),
      (submits) => submits.length >= 3,
    );
    expect(answers.map((submit) => submit.text)).toEqual([
      'Vous ne recevrez plus nos messages sur ce numero. Envoyez START pour vous reabonner.',
      'Vous recevrez de nouveau nos messages. Envoyez STOP pour ne plus les recevoir.',
      'Envoyez STOP pour ne plus recevoir nos messages, START pour les recevoir de nouveau.',
    ]);
    expect(answers.every((submit) => submit.sourceAddr === number.slice(1))).toBe(true);

    const sent = (await t.http().get('/v1/sms/out').query({ to: from }).set('Authorization', tenant.auth).expect(200)).body.data.items;
    expect(sent).toHaveLength(3);
    for (const message of sent) {
      expect(message).toMatchObject({ to: from, type: 'sms', source: 'reply', amount: 0, message_price_id: null, created_by: tenant.userId, local_number: number });
    }
    expect(await balance()).toBe(before);
    const ledger = (await t.http().get('/v1/balance/transactions').set('Authorization', tenant.auth).expect(200)).body.data.items;
    expect(ledger.filter((entry: { type: string }) => entry.type === 'debit')).toEqual([]);
  });
});
