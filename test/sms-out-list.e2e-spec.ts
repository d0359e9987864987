import { randomUUID } from 'node:crypto';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { newestFirst, storedMessage, storeMessages, type StoredMessage } from './support/messages.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const DAY_MS = 86_400_000;
const STATUSES = ['scheduled', 'pending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled'] as const;
const CAMPAIGN = '0193a3c2-0000-7000-8000-00000000ca01';
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const phoneOf = (n: number) => `+22507080${String(n).padStart(5, '0')}`;

describe('GET /v1/sms/out', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.pauseDelivery();
  });
  afterAll(() => t?.close());

  const list = (tenant: Tenant, query: Record<string, string> = {}) => t.http().get('/v1/sms/out').query(query).set('Authorization', tenant.auth);
  const idsOf = async (tenant: Tenant, query: Record<string, string> = {}) => {
    const response = await list(tenant, { limit: '100', ...query }).expect(200);
    return (response.body.data.items as Array<{ uniq_id: string }>).map((item) => item.uniq_id);
  };
  /** Every page of a list, in turn; `between` runs after each page is read. */
  const walk = async (tenant: Tenant, query: Record<string, string>, between: () => Promise<unknown> = async () => undefined) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { data } = (await list(tenant, { ...query, ...(cursor ? { cursor } : {}) }).expect(200)).body;
      seen.push(...data.items.map((item: { uniq_id: string }) => item.uniq_id));
      expect(data.has_more).toBe(data.next_cursor !== null);
      cursor = data.next_cursor ?? undefined;
      await between();
    } while (cursor);
    return seen;
  };
  const sendOtp = async (tenant: Tenant, to: string) =>
    (await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(to)).expect(200)).body.data.uniq_id as string;
  const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * DAY_MS);
  async function sandboxKeyOf(tenant: Tenant): Promise<Tenant> {
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    return { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };
  }

  describe('items', () => {
    it('are whole MessageOut objects, newest first, the same as GET /sms/out/{id} answers', async () => {
      const tenant = await createTenant(t);
      const sent = [await sendOtp(tenant, phoneOf(1)), await sendOtp(tenant, phoneOf(2)), await sendOtp(tenant, phoneOf(3))];

      const response = await list(tenant).expect(200);

      const reads = [];
      for (const id of [...sent].reverse()) reads.push((await t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth).expect(200)).body.data);
      expect(response.body).toEqual({ status: 200, message: 'succès', data: { items: reads, next_cursor: null, has_more: false } });
      expect(reads[0]).toMatchObject({ to: phoneOf(3), campaign_id: null, sandbox: false, type: 'otp', status: 'pending' });
    });

    it('show the contact the send named, else the contact with the number, and keep a deleted contact id', async () => {
      const tenant = await createTenant(t);
      const awa = (await t.http().post('/v1/contact').set('Authorization', tenant.auth).send({ phone: phoneOf(10), name: 'Awa' }).expect(201)).body.data;
      const gone = (await t.http().post('/v1/contact').set('Authorization', tenant.auth).send({ phone: phoneOf(11), name: 'Parti' }).expect(201)).body.data;
      const otp = await sendOtp(tenant, phoneOf(10));
      const named = storedMessage(tenant, daysAgo(1), { contactId: gone.id, recipient: phoneOf(11), campaignId: CAMPAIGN, status: 'scheduled' });
      await storeMessages(t, [named]);
      await t.http().delete(`/v1/contact/${gone.id}`).set('Authorization', tenant.auth).expect(200);

      const { items } = (await list(tenant).expect(200)).body.data;

      expect(items.map((item: Record<string, unknown>) => [item.uniq_id, item.contact_id, item.contact])).toEqual([
        [otp, awa.id, { id: awa.id, name: 'Awa', email: null, phone: phoneOf(10) }],
        [named.uniqId, gone.id, null],
      ]);
      expect(items[1]).toMatchObject({ to: phoneOf(11), campaign_id: CAMPAIGN, source: 'campaign', status: 'scheduled' });
    });
  });

  describe('filters', () => {
    let acme: Tenant;
    let sandbox: Tenant;
    let awa: { id: string; phone: string };
    let otherSender: string;
    let stored: StoredMessage[];
    let otp: StoredMessage;
    /** What the list should hold: the live messages of the last 30 days that `keep` keeps, newest first. */
    const expected = (keep: (message: StoredMessage) => boolean) =>
      newestFirst(stored.filter((message) => !message.test && message.at.getTime() >= daysAgo(30).getTime() && keep(message)));

    beforeAll(async () => {
      acme = await createTenant(t, { name: 'Acme' });
      sandbox = await sandboxKeyOf(acme);
      otherSender = (await t.admin.createSender(acme.accountId, 'ACME2')).sender_id;
      awa = (await t.http().post('/v1/contact').set('Authorization', acme.auth).send({ phone: phoneOf(100), name: 'Awa' }).expect(201)).body.data;
      stored = Array.from({ length: 42 }, (_, n) =>
        storedMessage(acme, daysAgo(n * 0.7 + 0.01), {
          type: n % 3 === 0 ? 'otp' : 'sms',
          status: STATUSES[n % STATUSES.length],
          lot: n < 12 ? 'relance-mars' : `lot-${n}`,
          externalId: n % 4 === 0 ? 'commande-1' : null,
          campaignId: n % 5 === 0 ? CAMPAIGN : null,
          senderId: n % 2 === 0 ? acme.senderId : otherSender,
          // named by the send; to its number but naming no contact (as an OTP); to its old number, named
          contactId: n % 6 === 0 || n % 13 === 0 ? awa.id : null,
          recipient: n % 6 === 0 || n % 7 === 1 ? awa.phone : n % 13 === 0 ? phoneOf(199) : phoneOf(200 + (n % 5)),
          test: n % 10 === 9,
        }),
      );
      stored.push(storedMessage(acme, daysAgo(45), { recipient: awa.phone }), storedMessage(acme, daysAgo(200)), storedMessage(acme, daysAgo(400)));
      await storeMessages(t, stored);
      otp = storedMessage(acme, t.clock.now(), { uniqId: await sendOtp(acme, awa.phone), type: 'otp', status: 'pending', recipient: awa.phone });
      stored.push(otp);
    });

    it('lists the last 30 days of the key\'s mode by default', async () => {
      expect(await idsOf(acme)).toEqual(expected(() => true));
      expect((await idsOf(acme)).length).toBeGreaterThan(30);
    });

    it.each([
      ['one status', { status: 'delivered' }, (m: StoredMessage) => m.status === 'delivered'],
      ['statuses separated by commas', { status: 'failed, scheduled,cancelled' }, (m: StoredMessage) => ['failed', 'scheduled', 'cancelled'].includes(m.status)],
      ['every status', { status: STATUSES.join(',') }, () => true],
      ['OTPs', { type: 'otp' }, (m: StoredMessage) => m.type === 'otp'],
      ['ordinary SMS', { type: 'sms' }, (m: StoredMessage) => m.type === 'sms'],
      ['a lot', { lot: 'relance-mars' }, (m: StoredMessage) => m.lot === 'relance-mars'],
      ['an external_id', { external_id: 'commande-1' }, (m: StoredMessage) => m.externalId === 'commande-1'],
      ['a campaign', { campaign_id: CAMPAIGN }, (m: StoredMessage) => m.campaignId === CAMPAIGN],
      ['a recipient', { to: '+2250708000100' }, (m: StoredMessage) => m.recipient === '+2250708000100'],
      ['a created range', { created_from: 'DAYS_AGO_20', created_to: 'DAYS_AGO_10' }, (m: StoredMessage) => m.at >= daysAgo(20) && m.at < daysAgo(10)],
      ['a status and a type', { status: 'sent,delivered', type: 'sms' }, (m: StoredMessage) => ['sent', 'delivered'].includes(m.status) && m.type === 'sms'],
      ['a lot and statuses', { lot: 'relance-mars', status: 'pending,sent' }, (m: StoredMessage) => m.lot === 'relance-mars' && ['pending', 'sent'].includes(m.status)],
      ['a recipient and a type', { to: '+2250708000100', type: 'otp' }, (m: StoredMessage) => m.recipient === '+2250708000100' && m.type === 'otp'],
      ['a campaign and an external_id', { campaign_id: CAMPAIGN, external_id: 'commande-1' }, (m: StoredMessage) => m.campaignId === CAMPAIGN && m.externalId === 'commande-1'],
      ['a status and a range', { status: 'failed,delivered', created_from: 'DAYS_AGO_20' }, (m: StoredMessage) => ['failed', 'delivered'].includes(m.status) && m.at >= daysAgo(20)],
    ])('keeps %s', async (_, query: Record<string, string>, keep) => {
      const dates = Object.fromEntries(Object.entries(query).map(([key, value]) => [key, value.replace(/^DAYS_AGO_(\d+)$/, (__, days) => daysAgo(Number(days)).toISOString())]));
      const kept = expected(keep);
      expect(kept.length).toBeGreaterThan(0);
      if (query.status !== STATUSES.join(',')) expect(kept.length).toBeLessThan(expected(() => true).length);
      expect(await idsOf(acme, dates)).toEqual(kept);
    });

    it('keeps nothing when no message matches every filter', async () => {
      expect(await idsOf(acme, { lot: 'relance-mars', campaign_id: CAMPAIGN, type: 'otp', status: 'pending' })).toEqual([]);
    });

    it('keeps a sender', async () => {
      expect(await idsOf(acme, { sender_id: otherSender })).toEqual(expected((m) => m.senderId === otherSender));
      expect(await idsOf(acme, { sender_id: acme.senderId, status: 'sent' })).toEqual(expected((m) => m.senderId === acme.senderId && m.status === 'sent'));
    });

    it('keeps the messages of a contact: named by the send (to any number), or to its number naming none', async () => {
      const ofAwa = (m: StoredMessage) => m.contactId === awa.id || (m.contactId === null && m.recipient === awa.phone);

      expect(await idsOf(acme, { contact_id: awa.id })).toEqual(expected(ofAwa));
      expect(await idsOf(acme, { contact_id: awa.id, type: 'otp' })).toEqual(expected((m) => ofAwa(m) && m.type === 'otp'));
      expect(await idsOf(acme, { contact_id: awa.id, lot: 'relance-mars' })).toEqual(expected((m) => ofAwa(m) && m.lot === 'relance-mars'));
      expect(await idsOf(acme, { contact_id: awa.id, status: 'pending' })).toContain(otp.uniqId);
      expect(await idsOf(acme, { contact_id: randomUUID() })).toEqual([]);
    });

    it('reads a recipient written with spaces or a bare + (a + left unencoded arrives as a space)', async () => {
      const ofAwa = expected((m) => m.recipient === awa.phone);
      const raw = await t.http().get(`/v1/sms/out?limit=100&to=+225 07 08 00 01 00`).set('Authorization', acme.auth).expect(200);
      expect(raw.body.data.items.map((item: { uniq_id: string }) => item.uniq_id)).toEqual(ofAwa);
      expect(await idsOf(acme, { to: '00225 07 08 00 01 00' })).toEqual(ofAwa);
    });

    it('reaches older messages with created_from, and refuses a range wider than 366 days', async () => {
      const all = newestFirst(stored.filter((m) => !m.test && m.at >= daysAgo(365)));
      expect(all.length).toBe(expected(() => true).length + 2);
      expect(await idsOf(acme, { created_from: daysAgo(365).toISOString() })).toEqual(all);
      expect(await idsOf(acme, { created_to: daysAgo(30).toISOString() })).toEqual(newestFirst(stored.filter((m) => !m.test && m.at >= daysAgo(60) && m.at < daysAgo(30))));
      expect((await list(acme, { created_from: daysAgo(367).toISOString() })).body).toEqual(invalid('created_from: intervalle de 366 jours maximum'));
      expect((await list(acme, { created_from: daysAgo(500).toISOString(), created_to: daysAgo(100).toISOString() })).body).toEqual(
        invalid('created_from: intervalle de 366 jours maximum'),
      );
      expect((await list(acme, { created_to: daysAgo(100).toISOString() })).status).toBe(200);
    });

    it("shows a sandbox key only the sandbox's messages, marked sandbox, and a live key none of them", async () => {
      const sent = await sendOtp(sandbox, phoneOf(150));
      const sandboxOnes = [sent, ...newestFirst(stored.filter((m) => m.test && m.at >= daysAgo(30)))];

      const { items } = (await list(sandbox, { limit: '100' }).expect(200)).body.data;

      expect(items.map((item: { uniq_id: string }) => item.uniq_id)).toEqual(sandboxOnes);
      expect(items.every((item: { sandbox: boolean }) => item.sandbox)).toBe(true);
      expect(await idsOf(acme)).not.toContain(sent);
      expect(await idsOf(sandbox, { status: 'pending', to: phoneOf(150) })).toEqual([sent]);
    });

    it("never shows another account's messages, whatever the filters name", async () => {
      const stranger = await createTenant(t);
      expect(await idsOf(stranger)).toEqual([]);
      const queries: Array<Record<string, string>> = [
        { lot: 'relance-mars' },
        { contact_id: awa.id },
        { to: awa.phone },
        { campaign_id: CAMPAIGN },
        { external_id: 'commande-1' },
        { sender_id: acme.senderId },
      ];
      for (const query of queries) {
        expect({ query, ids: await idsOf(stranger, query) }).toEqual({ query, ids: [] });
      }
    });

    it('pages through statuses and a contact, each message once, newest first', async () => {
      const queries: Array<Record<string, string>> = [{ status: 'sent,delivered,failed' }, { contact_id: awa.id }, { type: 'sms', sender_id: otherSender }];
      for (const query of queries) {
        const all = await idsOf(acme, query);
        expect(all.length).toBeGreaterThan(4);
        expect({ query, seen: await walk(acme, { ...query, limit: '2' }) }).toEqual({ query, seen: all });
      }
    });
  });

  describe('paging', () => {
    it('sees every message that existed at the start exactly once, newest first, while another client sends and writes', async () => {
      const tenant = await createTenant(t, { balance: '10000.00' });
      const existing = Array.from({ length: 61 }, (_, n) => storedMessage(tenant, new Date(t.clock.now().getTime() - (61 - n) * 60_000), { status: n % 2 ? 'delivered' : 'sent' }));
      await storeMessages(t, existing);
      let sends = 0;
      const anotherClient = () =>
        Promise.all([
          sendOtp(tenant, phoneOf(300 + ++sends)),
          storeMessages(t, [storedMessage(tenant, t.clock.now(), { status: 'delivered' }), storedMessage(tenant, new Date(t.clock.now().getTime() + 1), { status: 'sent' })]),
        ]);

      const seen = await walk(tenant, { limit: '7' }, anotherClient);
      const atStart = await idsOf(tenant, { status: 'delivered,sent' });
      const delivered = await walk(tenant, { limit: '5', status: 'delivered,sent' }, anotherClient);

      expect(seen).toEqual(newestFirst(existing));
      expect(atStart.length).toBeGreaterThan(existing.length);
      expect(delivered).toEqual(atStart);
      expect(sends).toBeGreaterThan(20);
    });

    it('answers limit items and a cursor bound to the filters it was made with', async () => {
      const tenant = await createTenant(t);
      await storeMessages(t, Array.from({ length: 5 }, (_, n) => storedMessage(tenant, new Date(t.clock.now().getTime() - n * 1000), { status: 'failed' })));

      const first = (await list(tenant, { limit: '2', status: 'failed' }).expect(200)).body.data;

      expect(first).toEqual({ items: [expect.any(Object), expect.any(Object)], next_cursor: expect.any(String), has_more: true });
      expect((await list(tenant, { limit: '2', status: 'failed', cursor: first.next_cursor }).expect(200)).body.data.items).toHaveLength(2);
      expect((await list(tenant, { limit: '2', status: ' failed', cursor: first.next_cursor }).expect(200)).body.data.items).toHaveLength(2);
      const others: Array<Record<string, string>> = [{ status: 'sent' }, {}, { status: 'failed', type: 'sms' }, { status: 'failed', created_from: t.clock.now().toISOString() }];
      for (const query of others) {
        expect((await list(tenant, { limit: '2', cursor: first.next_cursor, ...query })).body).toEqual(invalid('cursor: curseur invalide'));
      }
      expect((await list(tenant, { cursor: 'pas-un-curseur' })).body).toEqual(invalid('cursor: curseur invalide'));
    });
  });

  describe('refusals', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await createTenant(t);
    });

    it.each([
      [{ status: 'sending' }, 'status: doit valoir scheduled, pending, sent, delivered, undelivered, failed, cancelled, ou plusieurs séparés par des virgules'],
      [{ status: 'sent,' }, 'status: doit valoir scheduled, pending, sent, delivered, undelivered, failed, cancelled, ou plusieurs séparés par des virgules'],
      [{ type: 'mms' }, 'type: doit valoir otp ou sms'],
      [{ lot: 'relance mars' }, 'lot: 1 à 64 caractères A-Z, a-z, 0-9, _ ou -'],
      [{ lot: 'x'.repeat(65) }, 'lot: 1 à 64 caractères A-Z, a-z, 0-9, _ ou -'],
      [{ external_id: 'commande-é' }, 'external_id: 1 à 100 caractères ASCII imprimables'],
      [{ external_id: 'x'.repeat(101) }, 'external_id: 1 à 100 caractères ASCII imprimables'],
      [{ campaign_id: 'campagne-1' }, 'campaign_id: doit être un identifiant (UUID)'],
      [{ sender_id: '42' }, 'sender_id: doit être un identifiant (UUID)'],
      [{ contact_id: 'awa' }, 'contact_id: doit être un identifiant (UUID)'],
      [{ to: '12' }, 'to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'],
      [{ created_from: '2026-11-01T00:00:00' }, 'created_from: date ISO 8601 avec fuseau attendue'],
      [{ created_to: 'hier' }, 'created_to: date ISO 8601 avec fuseau attendue'],
      [{ created_from: '2026-11-02T00:00:00Z', created_to: '2026-11-01T00:00:00Z' }, 'created_to: doit être postérieur à created_from'],
      [{ limit: '101' }, 'limit: doit être un entier compris entre 1 et 100'],
    ])('refuses %j', async (query, error) => {
      expect((await list(tenant, query)).body).toEqual(invalid(error));
    });

    it('refuses a filter given twice, and names every bad filter', async () => {
      const twice = await t.http().get('/v1/sms/out?status=sent&status=failed').set('Authorization', tenant.auth);
      expect(twice.body).toEqual(invalid('status: doit être une chaîne de caractères'));
      expect((await list(tenant, { type: 'mms', to: 'x', sender_id: 'y' })).body).toEqual(
        invalid('type: doit valoir otp ou sms', 'sender_id: doit être un identifiant (UUID)', expect.stringMatching(/^to: numéro de téléphone invalide/)),
      );
    });

    it('answers 401 without a key', async () => {
      expect((await t.http().get('/v1/sms/out')).body).toEqual({ status: 401, message: 'Non autorisé' });
    });
  });
});
