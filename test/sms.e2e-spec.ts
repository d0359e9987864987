import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { MessageOutRepository } from '../src/sms/message-out.repository.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PRICE_CI = { id: '0191f3a0-0000-7000-8000-000000000225', description: "SMS Côte d'Ivoire", amount: 2.5 };
const NOT_FOUND = { status: 404, message: 'Non trouvé', errors: [expect.any(String)] };

interface Company {
  accountId: string;
  userId: string;
  senderId: string;
  auth: string;
}

describe('GET /v1/sms/out/{id}', () => {
  let t: TestApp;
  let acme: Company;
  let phones = 0;
  const nextPhone = () => `+22507${String(20_000_000 + ++phones)}`;

  const send = async (auth: string, to: string, extra: Record<string, unknown> = {}) => {
    const res = await t.http().post('/v1/otp/send').set('Authorization', auth).send(smsBody(to, extra));
    expect(res.status).toBe(200);
    return res.body.data.uniq_id as string;
  };
  const read = (auth: string, id: string) => t.http().get(`/v1/sms/out/${id}`).set('Authorization', auth);

  /** The dispatcher hands messages over right after commit; held, they stay pending until the test delivers them. */
  const deliverHeld = async () => {
    t.resumeDelivery();
    await t.deliver();
    await t.pauseDelivery();
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.pauseDelivery();
    const created = await t.admin.createAccount({
      name: 'Acme',
      email: 'ops@acme.example',
      phone: '+2250101010101',
      sender: 'ACME',
      balance: '100',
    });
    acme = {
      accountId: created.account_id,
      userId: created.user_id,
      senderId: created.sender_id,
      auth: `Bearer ${created.api_key}`,
    };
  });
  afterAll(() => t?.close());

  it('returns the whole MessageOut of an SMS OTP by its uniq_id', async () => {
    const to = nextPhone();
    const uniqId = await send(acme.auth, to);

    const res = await read(acme.auth, uniqId);

    expect(res.body).toEqual({
      status: 200,
      message: 'succès',
      data: {
        company_id: acme.accountId,
        uniq_id: uniqId,
        external_id: null,
        message_price_id: PRICE_CI.id,
        type: 'otp',
        lot: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        sender_id: acme.senderId,
        contact_id: null,
        to,
        campaign_id: null,
        message: 'Votre code est ******',
        page: '1',
        message_encoding: 'GSM7',
        amount: 2.5,
        send_at: expect.stringMatching(ISO_UTC),
        done_at: null,
        mccmnc: null,
        dlr_number_retry: 0,
        provider: null,
        provider_id: null,
        provider_status: null,
        source: 'api',
        status: 'pending',
        created_by: acme.userId,
        webhook_url: null,
        webhook_response: null,
        retrieve: false,
        local_number: null,
        language: 'fr',
        sandbox: false,
        company: { id: acme.accountId, name: 'Acme', email: 'ops@acme.example', phone: '+2250101010101' },
        message_price: PRICE_CI,
        sender: { id: acme.senderId, name: 'ACME', email: null, phone: null },
        contact: null,
        author: { id: acme.userId, name: 'Acme', email: 'ops@acme.example' },
      },
    });
  });

  it('gives send_at as the ISO 8601 UTC instant of the send on the application clock', async () => {
    t.clock.advance(3 * 86_400);
    const before = t.clock.now().getTime();
    const uniqId = await send(acme.auth, nextPhone());
    const after = t.clock.now().getTime();

    const { send_at } = (await read(acme.auth, uniqId)).body.data;

    expect(send_at).toMatch(ISO_UTC);
    expect(Date.parse(send_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(send_at)).toBeLessThanOrEqual(after);
  });

  it('moves from pending to sent once delivered', async () => {
    const uniqId = await send(acme.auth, nextPhone());
    expect((await read(acme.auth, uniqId)).body.data.status).toBe('pending');

    await deliverHeld();
    const res = await read(acme.auth, uniqId);

    expect(res.body.data).toEqual(
      expect.objectContaining({
        status: 'sent',
        provider: 'log',
        provider_id: `log-${uniqId}`,
        provider_status: null,
        done_at: null,
        send_at: expect.stringMatching(ISO_UTC),
      }),
    );
  });

  it('counts segments in page, as a string, and charges each', async () => {
    const uniqId = await send(acme.auth, nextPhone(), { message: `${'a'.repeat(200)} ##OTP##` });

    const { page, amount } = (await read(acme.auth, uniqId)).body.data;

    expect(page).toBe('2');
    expect(amount).toBe(5);
  });

  it('finds the message by its lot', async () => {
    const uniqId = await send(acme.auth, nextPhone());
    const { lot } = (await read(acme.auth, uniqId)).body.data;

    const res = await read(acme.auth, lot);

    expect(res.body).toEqual({ status: 200, message: 'succès', data: expect.objectContaining({ uniq_id: uniqId, lot }) });
  });

  it('answers the earliest message of a lot that holds several', async () => {
    const to = nextPhone();
    const uniqId = await send(acme.auth, to);
    const original = (await read(acme.auth, uniqId)).body.data;
    const sentAt = Date.parse(original.send_at);
    // as the service makes them, each id carries its row's creation time
    const earlier = uuidv7({ msecs: sentAt - 1000 });
    const later = uuidv7({ msecs: sentAt + 1000 });
    await t.database.transaction(async (sql) => {
      const messages = t.app.get(MessageOutRepository);
      const base = {
        accountId: acme.accountId,
        messagePriceId: PRICE_CI.id,
        type: 'sms' as const,
        lot: original.lot as string,
        senderId: acme.senderId,
        recipient: to,
        message: 'Bonjour',
        segments: 1,
        encoding: 'GSM7',
        amount: 250,
        createdBy: acme.userId,
        localNumber: null,
        language: null,
        test: false,
      };
      await messages.insert(sql, { ...base, uniqId: earlier, at: new Date(sentAt - 1000) });
      await messages.insert(sql, { ...base, uniqId: later, at: new Date(sentAt + 1000) });
    });

    const byLot = await read(acme.auth, original.lot);
    const byId = await read(acme.auth, uniqId);

    expect(byLot.body.data.uniq_id).toBe(earlier);
    expect(byId.body.data.uniq_id).toBe(uniqId);
  });

  it('shows the contact of the account that has the number', async () => {
    const to = nextPhone();
    const { contact_id } = await t.admin.createContact(acme.accountId, { name: 'Awa Koné', phone: to, email: 'awa@client.example' });
    const uniqId = await send(acme.auth, to);

    const { data } = (await read(acme.auth, uniqId)).body;

    expect(data.contact_id).toBe(contact_id);
    expect(data.contact).toEqual({ id: contact_id, name: 'Awa Koné', email: 'awa@client.example', phone: to });
  });

  it('shows a contact with no name or e-mail with nulls', async () => {
    const to = nextPhone();
    const { contact_id } = await t.admin.createContact(acme.accountId, { phone: to });
    const uniqId = await send(acme.auth, to);

    const { data } = (await read(acme.auth, uniqId)).body;

    expect(data.contact).toEqual({ id: contact_id, name: null, email: null, phone: to });
  });

  it("does not show another account's contact with the same number", async () => {
    const other = await createTenant(t);
    const to = nextPhone();
    await t.admin.createContact(other.accountId, { name: 'Ailleurs', phone: to });
    const uniqId = await send(acme.auth, to);

    const { data } = (await read(acme.auth, uniqId)).body;

    expect(data.contact_id).toBeNull();
    expect(data.contact).toBeNull();
  });

  it('names the user who sent with a JWT as created_by and author', async () => {
    const { user_id } = await t.admin.createUser(acme.accountId, 'Bintou', 'bintou@acme.example');
    const { token } = await t.admin.issueToken(user_id);
    const uniqId = await send(`Bearer ${token}`, nextPhone());

    const { data } = (await read(`Bearer ${token}`, uniqId)).body;

    expect(data.created_by).toBe(user_id);
    expect(data.author).toEqual({ id: user_id, name: 'Bintou', email: 'bintou@acme.example' });
  });

  it('answers 404 Non trouvé with one error for an unknown id', async () => {
    const res = await read(acme.auth, randomUUID());

    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('answers 404 Non trouvé for an id that is neither a uuid nor a lot', async () => {
    const res = await read(acme.auth, encodeURIComponent('ni un id, ni un lot'));

    expect(res.body).toEqual(NOT_FOUND);
  });

  describe("another account's message", () => {
    let stranger: Tenant;
    let uniqId: string;
    let lot: string;

    beforeAll(async () => {
      stranger = await createTenant(t);
      uniqId = await send(stranger.auth, nextPhone());
      lot = (await read(stranger.auth, uniqId)).body.data.lot;
    });

    it('answers 404 by uniq_id', async () => {
      const res = await read(acme.auth, uniqId);

      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });

    it('answers 404 by lot', async () => {
      const res = await read(acme.auth, lot);

      expect(res.body).toEqual(NOT_FOUND);
    });
  });
});
