import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR_MS = 3_600_000;

/** `+22507070` followed by `n` on 5 digits: a valid Ivorian mobile number. */
const ci = (n: number) => `+22507070${String(n).padStart(5, '0')}`;

describe('POST /v1/sms/send', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SMS_MAX_RECIPIENTS_PER_REQUEST: '40', SMS_DUPLICATE_WINDOW_SECONDS: '600' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (tenant: Tenant, body: object, headers: Record<string, string> = {}) =>
    t.http().post('/v1/sms/send').set('Authorization', tenant.auth).set(headers).send(body);
  const cancel = (tenant: Tenant, idOrLot: string) => t.http().post(`/v1/sms/out/${idOrLot}/cancel`).set('Authorization', tenant.auth);
  const read = (tenant: Tenant, id: string) => t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth);
  const balanceOf = async (tenant: Tenant) =>
    t.database.run(async (sql) => {
      const account = await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]);
      const ledger = await sql.get<{ total: number | string }>('SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?', [tenant.accountId]);
      expect(Number(ledger?.total)).toBe(Number(account?.balance));
      return Number(account?.balance) / 100;
    });
  const storedOf = (tenant: Tenant) =>
    t.database.run(async (sql) => ({
      messages: Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ?', [tenant.accountId]))?.n),
      lots: Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM message_lot WHERE account_id = ?', [tenant.accountId]))?.n),
    }));
  const textOf = (uniqId: string) =>
    t.database.run(async (sql) => (await sql.get<{ message: string }>('SELECT message FROM message_out WHERE uniq_id = ?', [uniqId]))!.message);
  const newContact = async (tenant: Tenant, body: object) =>
    (await t.http().post('/v1/contact').set('Authorization', tenant.auth).send(body).expect(201)).body.data.id as string;
  const newGroup = async (tenant: Tenant, contactIds: string[]) => {
    const id = (await t.http().post('/v1/group').set('Authorization', tenant.auth).send({ name: `Groupe ${Math.random()}` }).expect(201)).body.data.id as string;
    await t.http().post(`/v1/group/${id}/contacts`).set('Authorization', tenant.auth).send({ contact_ids: contactIds }).expect(200);
    return id;
  };

  describe('accepting', () => {
    it('sends to one number: one message priced by country and segments, debited at once, handed over', async () => {
      const tenant = await createTenant(t);

      const response = await send(tenant, { to: ci(1), message: 'Votre colis arrive demain.', external_id: 'commande-1' }).expect(200);

      const data = response.body.data;
      expect(response.body.message).toBe('succès');
      expect(data).toEqual({
        lot: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        count: 1,
        amount: 2.5,
        balance: 997.5,
        scheduled: false,
        messages: [{ uniq_id: expect.any(String), to: ci(1), status: 'pending', page: 1, amount: 2.5, send_at: expect.stringMatching(TIME) }],
        rejected: [],
      });
      expect(await balanceOf(tenant)).toBe(997.5);
      await t.deliver();
      const record = (await read(tenant, data.messages[0].uniq_id).expect(200)).body.data;
      expect(record).toMatchObject({ type: 'sms', source: 'api', status: 'sent', lot: data.lot, external_id: 'commande-1', page: '1' });
    });

    it('expands numbers, contacts and groups, keeps the first of each number and refuses the rest one by one', async () => {
      const tenant = await createTenant(t);
      const awa = await newContact(tenant, { phone: ci(11), name: 'Awa' });
      const moussa = await newContact(tenant, { phone: ci(12), name: 'Moussa' });
      const fatou = await newContact(tenant, { phone: ci(13), name: 'Fatou' });
      const group = await newGroup(tenant, [moussa, fatou]);
      await t.http().post('/v1/opt-out').set('Authorization', tenant.auth).send({ phones: [ci(13)] }).expect(200);

      const response = await send(tenant, {
        to: [ci(11), 'pas un numéro', ci(14), '+225 07 07 00 00 14'],
        contact_ids: [awa, moussa],
        group_ids: [group],
        message: 'Bonjour',
      }).expect(200);

      const data = response.body.data;
      expect(data.messages.map((message: { to: string }) => message.to)).toEqual([ci(11), ci(14), ci(12)]);
      expect(data.rejected).toEqual([
        { to: 'pas un numéro', reason: 'numero_invalide' },
        { to: '+225 07 07 00 00 14', reason: 'doublon' },
        { to: ci(11), reason: 'doublon' },
        { to: ci(12), reason: 'doublon' },
        { to: ci(13), reason: 'desinscrit' },
      ]);
      expect(data).toMatchObject({ count: 3, amount: 7.5, balance: 992.5 });
    });

    it('personalises each message from its contact, a number given as such included; what a contact lacks is empty', async () => {
      const tenant = await createTenant(t);
      const awa = await newContact(tenant, { phone: ci(21), name: 'Awa', attributes: { ville: 'Abidjan' } });
      await newContact(tenant, { phone: ci(22), name: 'Koffi' });

      const { messages } = (await send(tenant, { to: [ci(22), ci(23)], contact_ids: [awa], message: 'Bonjour ##NAME## (##Ville##)' }).expect(200)).body.data;

      expect(await textOf(messages[0].uniq_id)).toBe('Bonjour Koffi ()');
      expect(await textOf(messages[1].uniq_id)).toBe('Bonjour  ()');
      expect(await textOf(messages[2].uniq_id)).toBe('Bonjour Awa (Abidjan)');
    });

    it('counts segments after personalisation: GSM-7 up to 160 then 153 per part, UCS-2 up to 70 then 67', async () => {
      const tenant = await createTenant(t);
      const long = await newContact(tenant, { phone: ci(31), name: 'x'.repeat(100) });
      const cases: Array<[body: object, pages: number]> = [
        [{ to: ci(32), message: 'a'.repeat(160) }, 1],
        [{ to: ci(33), message: 'a'.repeat(161) }, 2],
        [{ to: ci(34), message: 'a'.repeat(306) }, 2],
        [{ to: ci(35), message: 'a'.repeat(307) }, 3],
        [{ to: ci(36), message: 'ł'.repeat(70) }, 1],
        [{ to: ci(37), message: 'ł'.repeat(71) }, 2],
        [{ to: ci(38), message: 'ł'.repeat(134) }, 2],
        [{ to: ci(39), message: 'ł'.repeat(135) }, 3],
        [{ contact_ids: [long], message: `${'a'.repeat(100)}##NAME##` }, 2],
      ];
      for (const [body, pages] of cases) {
        const data = (await send(tenant, body).expect(200)).body.data;
        expect({ body, page: data.messages[0].page, amount: data.amount }).toEqual({ body, page: pages, amount: 2.5 * pages });
      }
    });

    it('refuses a number whose destination has no price', async () => {
      const tenant = await createTenant(t);
      await t.database.run((sql) => sql.run("DELETE FROM message_price WHERE channel = 'SMS' AND dial_code = '*'"));

      const response = await send(tenant, { to: [ci(41), '+4915112345678'], message: 'Hallo' }).expect(200);

      expect(response.body.data.rejected).toEqual([{ to: '+4915112345678', reason: 'destination_non_prise_en_charge' }]);
    });

    it('refuses the same text to the same number within SMS_DUPLICATE_WINDOW_SECONDS, not another text', async () => {
      const tenant = await createTenant(t);
      await send(tenant, { to: ci(51), message: 'Rappel: rendez-vous demain' }).expect(200);

      const again = await send(tenant, { to: [ci(51), ci(52)], message: 'Rappel: rendez-vous demain' }).expect(200);
      const other = await send(tenant, { to: ci(51), message: 'Rappel: rendez-vous lundi' }).expect(200);

      expect(again.body.data.rejected).toEqual([{ to: ci(51), reason: 'doublon_recent' }]);
      expect(other.body.data.count).toBe(1);
    });

    it('answers 400 `to: aucun destinataire valide` with the reasons when nobody is left, and stores nothing', async () => {
      const tenant = await createTenant(t);

      const response = await send(tenant, { to: ['12', ci(61), ci(61)], message: 'x' }).expect(200);
      const none = await send(tenant, { to: ['12', 'abc'], message: 'x' });

      expect(response.body.data.count).toBe(1);
      expect(none.body).toEqual(invalid('to: aucun destinataire valide', '12: numero_invalide', 'abc: numero_invalide'));
      expect(await storedOf(tenant)).toEqual({ messages: 1, lots: 1 });
    });

    it('answers 400 above SMS_MAX_RECIPIENTS_PER_REQUEST after expansion', async () => {
      const tenant = await createTenant(t);
      const ids = [];
      for (let n = 0; n < 30; n++) ids.push(await newContact(tenant, { phone: ci(100 + n) }));
      const group = await newGroup(tenant, ids);

      const response = await send(tenant, { to: Array.from({ length: 11 }, (_, n) => ci(200 + n)), group_ids: [group], message: 'x' });

      expect(response.body).toEqual(invalid('to: au plus 40 destinataires par requête ; utilisez une campagne'));
      expect(await storedOf(tenant)).toEqual({ messages: 0, lots: 0 });
    });

    it('answers 402 with costs and balance when the total is not covered, and stores nothing', async () => {
      const tenant = await createTenant(t, { balance: '6.00' });

      const response = await send(tenant, { to: [ci(71), ci(72), ci(73)], message: 'x' });

      expect(response.status).toBe(402);
      expect(response.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 7.5, balance: 6 } });
      expect(await storedOf(tenant)).toEqual({ messages: 0, lots: 0 });
      expect(await balanceOf(tenant)).toBe(6);
    });

    it('answers a replay with the same Idempotency-Key with the first answer, sending once', async () => {
      const tenant = await createTenant(t);
      const headers = { 'Idempotency-Key': 'send-once-1' };

      const first = await send(tenant, { to: [ci(81), ci(82)], message: 'x' }, headers).expect(200);
      const replay = await send(tenant, { to: [ci(81), ci(82)], message: 'x' }, headers).expect(200);

      expect(replay.body).toEqual(first.body);
      expect(await storedOf(tenant)).toEqual({ messages: 2, lots: 1 });
      expect(await balanceOf(tenant)).toBe(995);
    });

    it('keeps a lot name once per account: 409 deja_existant the second time, another account may use it', async () => {
      const [tenant, other] = [await createTenant(t), await createTenant(t)];

      await send(tenant, { to: ci(91), message: 'x', lot: 'relance-mars' }).expect(200);
      const again = await send(tenant, { to: ci(92), message: 'x', lot: 'relance-mars' });
      await send(other, { to: ci(91), message: 'x', lot: 'relance-mars' }).expect(200);

      expect(again.status).toBe(409);
      expect(again.body).toEqual({ status: 409, message: 'deja_existant', errors: ['lot: le lot relance-mars existe déjà'] });
      expect(await storedOf(tenant)).toEqual({ messages: 1, lots: 1 });
    });

    it('with a sandbox key: records marked sandbox, nothing debited, the sandbox course followed', async () => {
      const tenant = await createTenant(t);
      const { api_key } = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, auth: `Bearer ${api_key}` };

      const data = (await send(sandbox, { to: ['+2250700000001', '+2250700000003'], message: 'test' }).expect(200)).body.data;
      await t.deliver();

      // the sandbox's receipts come a moment after the hand-over, as an SMSC's do
      const settled = (uniqId: string) =>
        until(async () => (await read(sandbox, uniqId).expect(200)).body.data, (message) => message.status !== 'pending' && message.status !== 'sent');

      expect(data).toMatchObject({ count: 2, amount: 0, balance: 1000 });
      expect(await settled(data.messages[0].uniq_id)).toMatchObject({ status: 'delivered', amount: 0 });
      expect(await settled(data.messages[1].uniq_id)).toMatchObject({ status: 'failed' });
      expect(await balanceOf(tenant)).toBe(1000);
    });

    it('accepts a body up to BULK_BODY_LIMIT_BYTES and answers 413 above it', async () => {
      const tenant = await createTenant(t);
      const padded = Array.from({ length: 1000 }, () => `  ${' '.repeat(200)}+2250707070707`);

      const large = await send(tenant, { to: padded, message: 'x' });
      const tooLarge = await send(tenant, { to: padded, message: 'x', external_id: 'x', padding: 'x'.repeat(1_100_000) });

      expect(large.status).toBe(200);
      expect(large.body.data.count).toBe(1);
      expect(tooLarge.status).toBe(413);
    });
  });

  describe('validation', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await createTenant(t);
    });

    const fieldCases: Array<[body: object, error: string]> = [
      [{ message: 'x' }, 'to: au moins un destinataire (to, contact_ids ou group_ids)'],
      [{ to: 2250707070707, message: 'x' }, 'to: doit être un numéro ou une liste de 1 à 1000 numéros'],
      [{ to: [], message: 'x' }, 'to: doit être un numéro ou une liste de 1 à 1000 numéros'],
      [{ to: Array.from({ length: 1001 }, (_, n) => ci(n)), message: 'x' }, 'to: doit être un numéro ou une liste de 1 à 1000 numéros'],
      [{ to: [ci(1), 5], message: 'x' }, 'to[1]: doit être une chaîne de caractères'],
      [{ contact_ids: ['nope'], message: 'x' }, 'contact_ids: doit être une liste de 1 à 1000 identifiants (UUID)'],
      [{ group_ids: Array.from({ length: 11 }, () => '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01'), message: 'x' }, 'group_ids: doit être une liste de 1 à 10 identifiants (UUID)'],
      [{ to: ci(1) }, 'message: est obligatoire'],
      [{ to: ci(1), message: '' }, 'message: ne doit pas être vide'],
      [{ to: ci(1), message: 7 }, 'message: doit être une chaîne de caractères'],
      [{ to: ci(1), message: 'x'.repeat(1601) }, 'message: doit contenir au plus 1600 caractères'],
      [{ to: ci(1), message: 'x', sender: 5 }, 'sender: doit être une chaîne de caractères'],
      [{ to: ci(1), message: 'x', external_id: 'é' }, 'external_id: 1 à 100 caractères ASCII imprimables'],
      [{ to: ci(1), message: 'x', external_id: 'x'.repeat(101) }, 'external_id: 1 à 100 caractères ASCII imprimables'],
      [{ to: ci(1), message: 'x', lot: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01' }, 'lot: 1 à 64 caractères A-Z, a-z, 0-9, _ ou -, sans la forme d’un UUID'],
      [{ to: ci(1), message: 'x', lot: 'a b' }, 'lot: 1 à 64 caractères A-Z, a-z, 0-9, _ ou -, sans la forme d’un UUID'],
      [{ to: ci(1), message: 'x', lot: 'a'.repeat(65) }, 'lot: 1 à 64 caractères A-Z, a-z, 0-9, _ ou -, sans la forme d’un UUID'],
      [{ to: ci(1), message: 'x', send_at: '2030-01-01T08:00:00' }, 'send_at: date ISO 8601 avec fuseau attendue'],
      [{ to: ci(1), message: 'x', delivery_window: 'soir' }, 'delivery_window: doit être un objet {days, from, to, timezone}'],
      [{ to: ci(1), message: 'x', validity_period: 4 }, 'validity_period: doit être compris entre 5 et 2880'],
      [{ to: ci(1), message: 'x', validity_period: 2881 }, 'validity_period: doit être compris entre 5 et 2880'],
      [{ to: ci(1), message: 'x', validity_period: '60' }, 'validity_period: doit être un entier'],
      [{ to: ci(1), message: 'x', webhook_url: 5 }, 'webhook_url: doit être une chaîne de caractères'],
      [{ to: ci(1), message: 'x', default_country: 'ci' }, 'default_country: doit être un code pays ISO 3166-1 à deux lettres majuscules (CI, SN…)'],
    ];
    it.each(fieldCases.map(([body, error]) => ({ body, error })))('answers 400 « $error »', async ({ body, error }) => {
      expect((await send(tenant, body)).body).toEqual(invalid(error));
    });

    const windowCases: Array<[window: object, error: string]> = [
      [{ days: [], from: '08:00', to: '20:00', timezone: 'Africa/Abidjan' }, 'delivery_window.days: doit être une liste de 1 à 7 jours distincts parmi mon, tue, wed, thu, fri, sat, sun'],
      [{ days: ['lun'], from: '08:00', to: '20:00', timezone: 'Africa/Abidjan' }, 'delivery_window.days: doit être une liste de 1 à 7 jours distincts parmi mon, tue, wed, thu, fri, sat, sun'],
      [{ days: ['mon'], from: '8h', to: '20:00', timezone: 'Africa/Abidjan' }, 'delivery_window.from: heure HH:MM attendue (00:00 à 23:59)'],
      [{ days: ['mon'], from: '08:00', to: '24:00', timezone: 'Africa/Abidjan' }, 'delivery_window.to: heure HH:MM attendue (00:00 à 23:59)'],
      [{ days: ['mon'], from: '08:00', to: '08:00', timezone: 'Africa/Abidjan' }, 'delivery_window.to: doit différer de from'],
      [{ days: ['mon'], from: '08:00', to: '20:00', timezone: 'Afrique/Abidjan' }, 'delivery_window.timezone: fuseau horaire IANA inconnu (par exemple Africa/Abidjan)'],
      [{ days: ['mon'], from: '08:00', to: '20:00' }, 'delivery_window.timezone: est obligatoire'],
    ];
    it.each(windowCases.map(([window, error]) => ({ window, error })))('answers 400 « $error »', async ({ window, error }) => {
      expect((await send(tenant, { to: ci(1), message: 'x', delivery_window: window })).body).toEqual(invalid(error));
    });

    it('answers 400 for a send_at more than SMS_MAX_SCHEDULE_DAYS ahead', async () => {
      const sendAt = new Date(t.clock.now().getTime() + 36 * 24 * HOUR_MS).toISOString();
      expect((await send(tenant, { to: ci(1), message: 'x', send_at: sendAt })).body).toEqual(invalid('send_at: doit être au plus dans 35 jours'));
    });

    it('answers 400 for a webhook_url that is not https to a public address', async () => {
      for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://user:pw@example.com/', 'ftp://example.com/']) {
        expect((await send(tenant, { to: ci(1), message: 'x', webhook_url: url })).body).toEqual(invalid('webhook_url: adresse non autorisée'));
      }
    });

    it('answers 400 for an unknown or foreign sender, and for one not approved', async () => {
      const other = await createTenant(t, { sender: 'AUTRE' });
      await t.http().post('/v1/sender').set('Authorization', tenant.auth).send({ name: 'ATTENTE', use_case: 'Rappels de rendez-vous' }).expect(201);

      expect((await send(tenant, { to: ci(1), message: 'x', sender: 'NOPE' })).body).toEqual(invalid('sender: expéditeur inconnu'));
      expect((await send(other, { to: ci(1), message: 'x', sender: 'DEMO' })).body).toEqual(invalid('sender: expéditeur inconnu'));
      expect((await send(tenant, { to: ci(1), message: 'x', sender: 'attente' })).body).toEqual(invalid('sender: expéditeur non approuvé'));
    });

    it("answers 400 for contacts and groups the account does not have (another account's included)", async () => {
      const other = await createTenant(t);
      const foreignContact = await newContact(other, { phone: ci(1) });
      const foreignGroup = await newGroup(other, [foreignContact]);
      const mine = await newContact(tenant, { phone: ci(2) });

      expect((await send(tenant, { contact_ids: [mine, foreignContact], message: 'x' })).body).toEqual(invalid('contact_ids[1]: contact inconnu'));
      expect((await send(tenant, { group_ids: [foreignGroup], message: 'x' })).body).toEqual(invalid('group_ids[0]: groupe inconnu'));
      expect(await storedOf(tenant)).toEqual({ messages: 0, lots: 0 });
    });
  });

  describe('scheduling and cancelling', () => {
    it('schedules a send_at more than a minute ahead, debits now, and hands over only once its time has come', async () => {
      const tenant = await createTenant(t);
      const sendAt = new Date(t.clock.now().getTime() + 2 * HOUR_MS);

      const data = (await send(tenant, { to: [ci(301), ci(302)], message: 'plus tard', send_at: sendAt.toISOString() }).expect(200)).body.data;
      await t.deliver();
      const waiting = (await read(tenant, data.messages[0].uniq_id).expect(200)).body.data.status;
      t.clock.advance(2 * 3600 + 1);
      await t.deliver();
      const after = (await read(tenant, data.messages[0].uniq_id).expect(200)).body.data.status;

      expect(data).toMatchObject({ scheduled: true, amount: 5, balance: 995 });
      expect(data.messages[0]).toMatchObject({ status: 'scheduled', send_at: sendAt.toISOString() });
      expect([waiting, after]).toEqual(['scheduled', 'sent']);
    });

    it('sends now when send_at is within a minute, or past', async () => {
      const tenant = await createTenant(t);
      const soon = new Date(t.clock.now().getTime() + 50_000).toISOString();
      const past = new Date(t.clock.now().getTime() - HOUR_MS).toISOString();

      const first = (await send(tenant, { to: ci(311), message: 'x', send_at: soon }).expect(200)).body.data;
      const second = (await send(tenant, { to: ci(312), message: 'x', send_at: past }).expect(200)).body.data;

      expect([first.scheduled, second.scheduled, first.messages[0].status]).toEqual([false, false, 'pending']);
    });

    it('holds messages due outside the delivery window until it opens, in its time zone', async () => {
      const tenant = await createTenant(t);
      const now = t.clock.now();
      // a one-hour window that opened two hours ago (UTC, every day): the next opening is in 22 hours
      const opens = new Date(now.getTime() - 2 * HOUR_MS);
      const hhmm = (date: Date) => date.toISOString().slice(11, 16);
      const window = { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: hhmm(opens), to: hhmm(new Date(opens.getTime() + HOUR_MS)), timezone: 'UTC' };

      const data = (await send(tenant, { to: ci(321), message: 'x', delivery_window: window }).expect(200)).body.data;

      const expected = new Date(opens.getTime() + 24 * HOUR_MS);
      expected.setUTCSeconds(0, 0);
      expect(data).toMatchObject({ scheduled: true, messages: [{ status: 'scheduled', send_at: expected.toISOString() }] });
    });

    it('cancels one scheduled message or a whole lot, refunding once; then 409 transition_invalide', async () => {
      const tenant = await createTenant(t);
      const sendAt = new Date(t.clock.now().getTime() + 3 * HOUR_MS).toISOString();
      const one = (await send(tenant, { to: ci(331), message: 'x', send_at: sendAt }).expect(200)).body.data;
      const lot = (await send(tenant, { to: [ci(332), ci(333), ci(334)], message: 'x', send_at: sendAt, lot: 'soldes' }).expect(200)).body.data;

      const byId = await cancel(tenant, one.messages[0].uniq_id).expect(200);
      const byLot = await cancel(tenant, 'soldes').expect(200);
      const again = await cancel(tenant, 'soldes');
      t.clock.advance(3 * 3600 + 1);
      await t.deliver();

      expect(byId.body.data).toEqual({ cancelled: 1, refunded: 2.5, balance: 992.5 });
      expect(byLot.body.data).toEqual({ cancelled: 3, refunded: 7.5, balance: 1000 });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ status: 409, message: 'transition_invalide', errors: ['status: message déjà annulé'] });
      expect((await read(tenant, lot.messages[2].uniq_id).expect(200)).body.data.status).toBe('cancelled');
      expect(await balanceOf(tenant)).toBe(1000);
      expect(await t.database.run((sql) => sql.all("SELECT id FROM outbox WHERE account_id = ?", [tenant.accountId]))).toEqual([]);
    });

    it('answers 409 for a message already pending or sent, and 404 for an unknown, malformed or foreign id or lot', async () => {
      const [tenant, other] = [await createTenant(t), await createTenant(t)];
      const sent = (await send(tenant, { to: ci(341), message: 'x' }).expect(200)).body.data;
      const later = (await send(tenant, { to: ci(342), message: 'x', send_at: new Date(t.clock.now().getTime() + HOUR_MS).toISOString() }).expect(200)).body.data;
      const notFound = { status: 404, message: 'Non trouvé', errors: ['id: aucun SMS pour cet identifiant ou ce lot'] };

      expect((await cancel(tenant, sent.messages[0].uniq_id)).status).toBe(409);
      expect((await cancel(other, later.messages[0].uniq_id)).body).toEqual(notFound);
      expect((await cancel(other, later.lot)).body).toEqual(notFound);
      expect((await cancel(tenant, '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01')).body).toEqual(notFound);
      expect((await cancel(tenant, 'pas-un-lot')).body).toEqual(notFound);
    });
  });
});
