import { Webhook } from 'standardwebhooks';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Each OTP SMS to Côte d'Ivoire costs 2.50. */
const recipient = (n: number) => `+22507080${String(n).padStart(5, '0')}`;
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const THRESHOLD_ERROR = 'threshold: doit être un montant entre 0 et 1000000000 avec au plus 2 décimales';

describe('/v1/balance', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let sent = 0;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const get = (tenant: Tenant, path: string) => t.http().get(path).set('Authorization', tenant.auth);
  const setAlert = (tenant: Tenant, body: unknown) => t.http().put('/v1/balance/alert').set('Authorization', tenant.auth).send(body as object);
  const sendOtp = (tenant: Tenant) => t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(recipient(++sent)));
  const transactions = async (tenant: Tenant, query = '') => (await get(tenant, `/v1/balance/transactions${query}`).expect(200)).body.data;
  const ledgerSum = async (tenant: Tenant) =>
    Number(
      (await t.database.run((sql) => sql.get<{ total: number | string }>('SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?', [tenant.accountId])))!
        .total,
    ) / 100;
  const storedLowEvents = async (tenant: Tenant) =>
    Number(
      (await t.database.run((sql) =>
        sql.get<{ count: number | string }>("SELECT COUNT(*) AS count FROM webhook_event WHERE account_id = ? AND type = 'balance.low'", [tenant.accountId]),
      ))!.count,
    );

  describe('GET /v1/balance', () => {
    it('answers the balance, the currency (XOF by default), no threshold, and when the balance last changed', async () => {
      const tenant = await createTenant(t, { balance: '1000.00' });

      const res = await get(tenant, '/v1/balance').expect(200);

      expect(res.body).toEqual({ status: 200, message: 'succès', data: { balance: 1000, currency: 'XOF', low_balance_threshold: null, updated_at: expect.stringMatching(TIME) } });
    });

    it('follows debits, and its updated_at is the time of the latest ledger row', async () => {
      const tenant = await createTenant(t, { balance: '10.00' });
      t.clock.advance(60);
      await sendOtp(tenant).expect(200);

      const { data } = (await get(tenant, '/v1/balance').expect(200)).body;

      expect(data.balance).toBe(7.5);
      expect(data.updated_at).toBe((await transactions(tenant)).items[0].created_at);
    });

    it('answers 401 in the envelope without credentials', async () => {
      const res = await t.http().get('/v1/balance').expect(401);
      expect(res.body).toMatchObject({ status: 401 });
    });
  });

  describe('PUT /v1/balance/alert', () => {
    it('sets the threshold and answers the balance; null removes it', async () => {
      const tenant = await createTenant(t, { balance: '100.00' });

      const set = await setAlert(tenant, { threshold: 25.5 }).expect(200);
      expect(set.body).toEqual({ status: 200, message: 'succès', data: { balance: 100, currency: 'XOF', low_balance_threshold: 25.5, updated_at: expect.stringMatching(TIME) } });
      expect((await get(tenant, '/v1/balance').expect(200)).body.data.low_balance_threshold).toBe(25.5);

      const removed = await setAlert(tenant, { threshold: null }).expect(200);
      expect(removed.body.data.low_balance_threshold).toBeNull();
    });

    it.each([
      [{}, 'threshold: est obligatoire'],
      [{ threshold: '500' }, THRESHOLD_ERROR],
      [{ threshold: -1 }, THRESHOLD_ERROR],
      [{ threshold: 10.005 }, THRESHOLD_ERROR],
      [{ threshold: 1_000_000_001 }, THRESHOLD_ERROR],
      [{ threshold: true }, THRESHOLD_ERROR],
    ])('refuses %j with a French field error', async (body, error) => {
      const tenant = await createTenant(t);
      const res = await setAlert(tenant, body).expect(400);
      expect(res.body).toEqual(invalid(error));
      expect((await get(tenant, '/v1/balance').expect(200)).body.data.low_balance_threshold).toBeNull();
    });

    it('refuses a body that is not a JSON object', async () => {
      const tenant = await createTenant(t);
      const res = await t.http().put('/v1/balance/alert').set('Authorization', tenant.auth).set('Content-Type', 'application/json').send('[1]').expect(400);
      expect(res.body).toEqual(invalid('body: doit être un objet JSON'));
    });
  });

  describe('GET /v1/balance/transactions', () => {
    it('lists the ledger newest first: signed amounts, the balance each row left, what it was for, in French', async () => {
      const tenant = await createTenant(t, { balance: '20.00' });
      const otp = (await sendOtp(tenant).expect(200)).body.data.uniq_id;
      const bulk = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: [recipient(++sent), recipient(++sent)], message: 'Bonjour' }).expect(200);
      await t.admin.credit(tenant.accountId, '5.00');

      const { items, next_cursor, has_more } = await transactions(tenant);

      const common = { id: expect.any(Number), created_at: expect.stringMatching(TIME) };
      expect(items).toEqual([
        { ...common, type: 'credit', amount: 5, balance_after: 17.5, reference_type: 'admin', reference_id: null, lot: null, description: 'Crédit du compte', created_by: null },
        {
          ...common,
          type: 'debit',
          amount: -5,
          balance_after: 12.5,
          reference_type: 'sms',
          reference_id: bulk.body.data.lot,
          lot: bulk.body.data.lot,
          description: 'Envoi de SMS',
          created_by: tenant.userId,
        },
        { ...common, type: 'debit', amount: -2.5, balance_after: 17.5, reference_type: 'otp', reference_id: otp, lot: expect.any(String), description: "Envoi d'un code OTP", created_by: tenant.userId },
        { ...common, type: 'opening', amount: 20, balance_after: 20, reference_type: 'admin', reference_id: null, lot: null, description: "Solde d'ouverture", created_by: null },
      ]);
      expect(items.map((item: { id: number }) => item.id)).toEqual([...items.map((item: { id: number }) => item.id)].sort((a, b) => b - a));
      expect({ next_cursor, has_more }).toEqual({ next_cursor: null, has_more: false });
      expect((await get(tenant, '/v1/balance').expect(200)).body.data.balance).toBe(17.5);
      expect(await ledgerSum(tenant)).toBe(17.5);
    });

    it('pages with a cursor: every row once, newest first', async () => {
      const tenant = await createTenant(t, { balance: '100.00' });
      for (let n = 0; n < 6; n++) await sendOtp(tenant).expect(200);
      const all = (await transactions(tenant, '?limit=100')).items.map((item: { id: number }) => item.id);

      const seen: number[] = [];
      let query = '?limit=3';
      for (;;) {
        const page = await transactions(tenant, query);
        seen.push(...page.items.map((item: { id: number }) => item.id));
        if (!page.has_more) break;
        query = `?limit=3&cursor=${page.next_cursor}`;
      }

      expect(all).toHaveLength(7);
      expect(seen).toEqual(all);
    });

    it('filters by type, reference_id and creation dates; a cursor only works with its filters', async () => {
      // the clock moves past the codes' expiry: held back, they are not refunded meanwhile
      await t.withDeliveryPaused(() => filtersOnce());
    });

    async function filtersOnce() {
      const tenant = await createTenant(t, { balance: '100.00' });
      // created_to is exclusive: the opening entry must be older than it, not of the same millisecond
      t.clock.advance(1);
      const before = t.clock.now();
      t.clock.advance(3600);
      const first = (await sendOtp(tenant).expect(200)).body.data.uniq_id;
      t.clock.advance(3600);
      const middle = t.clock.now();
      await sendOtp(tenant).expect(200);
      await sendOtp(tenant).expect(200);
      await t.admin.credit(tenant.accountId, '1.00');

      const debits = await transactions(tenant, '?type=debit&limit=2');
      expect(debits.items.map((item: { type: string }) => item.type)).toEqual(['debit', 'debit']);
      expect(debits.has_more).toBe(true);
      const rest = await transactions(tenant, `?type=debit&limit=2&cursor=${debits.next_cursor}`);
      expect(rest.items.map((item: { reference_id: string }) => item.reference_id)).toEqual([first]);

      expect((await transactions(tenant, `?reference_id=${first}`)).items).toEqual([expect.objectContaining({ type: 'debit', reference_id: first, amount: -2.5 })]);
      expect((await transactions(tenant, '?type=credit')).items).toEqual([expect.objectContaining({ type: 'credit', amount: 1 })]);
      expect((await transactions(tenant, `?created_to=${encodeURIComponent(before.toISOString())}`)).items.map((item: { type: string }) => item.type)).toEqual([
        'opening',
      ]);
      expect((await transactions(tenant, `?created_from=${encodeURIComponent(middle.toISOString())}`)).items.map((item: { type: string }) => item.type)).toEqual([
        'credit',
        'debit',
        'debit',
      ]);
      const window = `created_from=${encodeURIComponent(before.toISOString())}&created_to=${encodeURIComponent(middle.toISOString())}`;
      expect((await transactions(tenant, `?${window}`)).items.map((item: { reference_id: string }) => item.reference_id)).toEqual([first]);

      const res = await get(tenant, `/v1/balance/transactions?type=credit&cursor=${debits.next_cursor}`).expect(400);
      expect(res.body).toEqual(invalid('cursor: curseur invalide'));
      expect((await get(tenant, `/v1/balance/transactions?cursor=${debits.next_cursor}`).expect(400)).body).toEqual(invalid('cursor: curseur invalide'));
    }

    it.each([
      ['type=bogus', 'type: doit valoir opening, debit, refund, credit ou adjustment'],
      ['limit=0', 'limit: doit être un entier compris entre 1 et 100'],
      ['created_from=2026-01-01T00:00:00', 'created_from: date ISO 8601 avec fuseau attendue'],
      [`reference_id=${'x'.repeat(65)}`, 'reference_id: ne doit pas dépasser 64 caractères'],
      ['cursor=not-a-cursor', 'cursor: curseur invalide'],
    ])('refuses %s', async (query, error) => {
      const tenant = await createTenant(t);
      expect((await get(tenant, `/v1/balance/transactions?${query}`).expect(400)).body).toEqual(invalid(error));
    });

    it("shows only the caller's account", async () => {
      const tenant = await createTenant(t);
      const other = await createTenant(t);
      await sendOtp(other).expect(200);
      const otherRow = (await transactions(other)).items[0];

      expect((await transactions(tenant)).items.map((item: { type: string }) => item.type)).toEqual(['opening']);
      expect((await transactions(tenant, `?reference_id=${otherRow.reference_id}`)).items).toEqual([]);
    });

    it('refunds a cancelled scheduled send with a refund row, and the balance stays the sum of the ledger', async () => {
      const tenant = await createTenant(t, { balance: '50.00' });
      const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      const lot = (await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: recipient(++sent), message: 'Plus tard', send_at: sendAt }).expect(200)).body
        .data.lot;
      await t.http().post(`/v1/sms/out/${lot}/cancel`).set('Authorization', tenant.auth).expect(200);

      const [refund] = (await transactions(tenant, '?type=refund')).items;
      expect(refund).toMatchObject({ amount: 2.5, balance_after: 50, reference_type: 'sms', reference_id: lot, description: 'Remboursement de SMS non transmis ou annulés' });
      expect(await ledgerSum(tenant)).toBe(50);
    });
  });

  describe('sandbox keys', () => {
    it('read and set the same balance, and their sends add nothing to the ledger', async () => {
      const tenant = await createTenant(t, { balance: '10.00' });
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };

      await sendOtp(sandbox).expect(200);
      await setAlert(sandbox, { threshold: 9 }).expect(200);

      expect((await get(sandbox, '/v1/balance').expect(200)).body.data).toMatchObject({ balance: 10, low_balance_threshold: 9 });
      expect((await transactions(sandbox)).items.map((item: { type: string }) => item.type)).toEqual(['opening']);
      expect((await transactions(tenant)).items.map((item: { type: string }) => item.type)).toEqual(['opening']);
      expect(await storedLowEvents(tenant)).toBe(0);
    });
  });

  describe('balance.low', () => {
    const subscribe = async (tenant: Tenant, path: string) =>
      (await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url(path), events: ['balance.low'] }).expect(200)).body.data.secret as string;
    const bodiesAt = async (path: string, count: number) =>
      (await until(() => receiver.at(path), (hooks) => hooks.length >= count)).map((hook) => JSON.parse(hook.body) as { type: string; data: Record<string, unknown> });

    it('fires once when a debit crosses the threshold, and again only after a credit has re-armed it', async () => {
      const tenant = await createTenant(t, { balance: '10.00' });
      const secret = await subscribe(tenant, '/low-once');
      await setAlert(tenant, { threshold: 6 }).expect(200);

      await sendOtp(tenant).expect(200); // 7.50: above
      await sendOtp(tenant).expect(200); // 5.00: crossed
      await sendOtp(tenant).expect(200); // 2.50: still below, no second event
      const [first] = await bodiesAt('/low-once', 1);

      expect(first).toEqual({
        id: expect.any(String),
        type: 'balance.low',
        created_at: expect.stringMatching(TIME),
        api_version: 'v1',
        data: { balance: 5, currency: 'XOF', low_balance_threshold: 6, updated_at: expect.stringMatching(TIME) },
      });
      const [hook] = receiver.at('/low-once');
      expect(new Webhook(secret).verify(hook!.body, hook!.headers as Record<string, string>)).toEqual(first);
      expect(await storedLowEvents(tenant)).toBe(1);

      await t.admin.credit(tenant.accountId, '3.50'); // 6.00: at the threshold, re-armed
      await sendOtp(tenant).expect(200); // 3.50: crossed again
      const all = await bodiesAt('/low-once', 2);
      expect(all[1]!.data).toMatchObject({ balance: 3.5, low_balance_threshold: 6 });
      expect(await storedLowEvents(tenant)).toBe(2);
    });

    it('is re-armed by a refund, and not by a credit that leaves the balance below the threshold', async () => {
      const tenant = await createTenant(t, { balance: '10.00' });
      await subscribe(tenant, '/low-refund');
      await setAlert(tenant, { threshold: 8 }).expect(200);
      const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();

      const lot = (await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: recipient(++sent), message: 'Plus tard', send_at: sendAt }).expect(200)).body
        .data.lot; // 7.50: crossed
      await t.admin.credit(tenant.accountId, '0.25'); // 7.75: still below
      await sendOtp(tenant).expect(200); // 5.25: no event, never re-armed
      expect(await storedLowEvents(tenant)).toBe(1);

      await t.admin.credit(tenant.accountId, '0.25'); // 5.50
      await t.http().post(`/v1/sms/out/${lot}/cancel`).set('Authorization', tenant.auth).expect(200); // 8.00: re-armed by the refund
      await sendOtp(tenant).expect(200); // 5.50: crossed
      const bodies = await bodiesAt('/low-refund', 2);
      expect(bodies.map((body) => body.data.balance)).toEqual([7.5, 5.5]);
    });

    it('does not fire for a threshold set while the balance is already below it, nor after the threshold is removed', async () => {
      const tenant = await createTenant(t, { balance: '10.00' });
      await subscribe(tenant, '/low-none');
      await setAlert(tenant, { threshold: 20 }).expect(200);
      await sendOtp(tenant).expect(200);
      expect(await storedLowEvents(tenant)).toBe(0);

      await setAlert(tenant, { threshold: 7 }).expect(200); // 7.50 is above: armed
      await setAlert(tenant, { threshold: null }).expect(200);
      await sendOtp(tenant).expect(200); // 5.00, but no threshold any more
      expect(await storedLowEvents(tenant)).toBe(0);

      await setAlert(tenant, { threshold: 3 }).expect(200); // armed at 5.00
      await sendOtp(tenant).expect(200); // 2.50: crossed
      expect(await storedLowEvents(tenant)).toBe(1);
      expect((await bodiesAt('/low-none', 1))[0]!.data).toMatchObject({ balance: 2.5, low_balance_threshold: 3 });
    });

    it('writes no event for an account whose webhook does not subscribe to it', async () => {
      const tenant = await createTenant(t, { balance: '10.00' });
      await setAlert(tenant, { threshold: 9 }).expect(200);
      await sendOtp(tenant).expect(200);
      expect(await storedLowEvents(tenant)).toBe(0);
    });

    it('fires exactly once when 20 concurrent debits cross the threshold', async () => {
      const tenant = await createTenant(t, { balance: '51.00' });
      await subscribe(tenant, '/low-race');
      await setAlert(tenant, { threshold: 50 }).expect(200);

      const answers = await Promise.all(Array.from({ length: 20 }, () => sendOtp(tenant)));

      expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(await storedLowEvents(tenant)).toBe(1);
      const [body] = await bodiesAt('/low-race', 1);
      expect(body!.data).toMatchObject({ balance: 48.5, low_balance_threshold: 50 });
      expect((await get(tenant, '/v1/balance').expect(200)).body.data.balance).toBe(1);
      expect(await ledgerSum(tenant)).toBe(1);
      const rows = (await transactions(tenant, '?limit=100')).items as Array<{ amount: number; balance_after: number }>;
      // each row's balance_after is the one before it plus its amount
      rows.reverse().reduce((before, row) => {
        expect(row.balance_after).toBeCloseTo(before + row.amount, 2);
        return row.balance_after;
      }, 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.at('/low-race')).toHaveLength(1);
    });
  });
});
