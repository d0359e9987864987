import smpp from 'smpp';
import { readTime } from '../src/database/sql.js';
import { SmppSmsProvider } from '../src/delivery/providers/smpp/smpp-sms.provider.js';
import { FakeSmsc, type ReceivedSubmit } from './support/fake-smsc.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CODE_INVALID = { status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] };
const SMPP = { SMS_PROVIDER: 'smpp' };
const MINUTE_MS = 60_000;

async function startSmppApp(smsc: FakeSmsc): Promise<TestApp> {
  const t = await startTestApp({ ...SMPP, SMPP_URL: smsc.url });
  await until(
    () => smsc.binds,
    (binds) => binds > 0,
  );
  return t;
}

let phones = 0;
const nextPhone = () => `+22507${String(30_000_000 + ++phones)}`;

/** Helpers over one app and its SMSC. */
function clientOf(t: TestApp, smsc: FakeSmsc) {
  const send = async (tenant: Tenant, to: string, extra: Record<string, unknown> = {}) => {
    const res = await t
      .http()
      .post('/v1/otp/send')
      .set('Authorization', tenant.auth)
      .send(smsBody(to, { otp_expiry: 3600, ...extra }));
    expect(res.body).toEqual({ status: 200, message: 'succès', data: expect.objectContaining({ uniq_id: expect.any(String) }) });
    return res.body.data as { uniq_id: string; code: string; expires_at: number };
  };
  return {
    send,
    sendSms: async (tenant: Tenant, body: Record<string, unknown>) => {
      const res = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send(body);
      expect(res.body).toEqual({ status: 200, message: 'succès', data: expect.objectContaining({ count: 1 }) });
      return res.body.data.messages[0] as { uniq_id: string };
    },
    smsOut: (tenant: Tenant, id: string) => t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth),
    statusOf: async (uniqId: string) =>
      (await t.database.run((sql) => sql.get<{ status: string }>('SELECT status FROM message_out WHERE uniq_id = ?', [uniqId])))?.status,
    verify: (tenant: Tenant, to: string, code: string) =>
      t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to, code }),
    balanceOf: async (tenant: Tenant): Promise<number> =>
      (await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance,
    ledgerOf: async (tenant: Tenant): Promise<Array<[number, string]>> => {
      const rows = await t.database.run((sql) =>
        sql.all<{ amount: number | string; kind: string }>('SELECT amount, kind FROM ledger_entry WHERE account_id = ? ORDER BY id', [
          tenant.accountId,
        ]),
      );
      return rows.map((row) => [Number(row.amount), row.kind]);
    },
    outboxOf: (uniqId: string) =>
      t.database.run((sql) => sql.all<{ available_at: string | Date }>('SELECT available_at FROM outbox WHERE record_id = ?', [uniqId])),
    submitsTo: (to: string): ReceivedSubmit[] => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1)),
  };
}

const ieOf = (submit: ReceivedSubmit) => submit.udh.map((ie) => [...ie]);

describe(SmppSmsProvider.name, () => {
  let smsc: FakeSmsc;
  let t: TestApp;
  let client: ReturnType<typeof clientOf>;

  beforeAll(async () => {
    smsc = new FakeSmsc();
    await smsc.start();
    t = await startSmppApp(smsc);
    client = clientOf(t, smsc);
  });
  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
  });

  /** Sends and waits until the dispatcher has handed the message over. */
  const sendAndDeliver = async (tenant: Tenant, to: string, extra: Record<string, unknown> = {}) => {
    const sent = await client.send(tenant, to, extra);
    await t.deliver();
    return sent;
  };

  describe('submit_sm', () => {
    it('submits the code from the alphanumeric sender to the number without +, asking for a receipt, valid until the OTP expires', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();

      const sent = await sendAndDeliver(tenant, to);

      expect(client.submitsTo(to)).toEqual([
        {
          messageId: expect.any(String),
          sourceAddr: 'DEMO',
          sourceTon: 5,
          destinationAddr: to.slice(1),
          registeredDelivery: 1,
          dataCoding: 0,
          esmClass: 0,
          text: `Votre code est ${sent.code}`,
          udh: [],
          validityPeriod: expect.any(Date),
          receivedAt: expect.any(Number),
        },
      ]);
      expect(Math.floor((client.submitsTo(to)[0].validityPeriod as Date).getTime() / 1000)).toBe(sent.expires_at);
    });

    it('records the message as sent by smpp under the SMSC message id', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const sent = await sendAndDeliver(tenant, to);

      const res = await client.smsOut(tenant, sent.uniq_id);

      expect(res.body).toEqual({
        status: 200,
        message: 'succès',
        data: expect.objectContaining({
          uniq_id: sent.uniq_id,
          status: 'sent',
          provider: 'default',
          provider_id: client.submitsTo(to)[0].messageId,
          provider_status: null,
          done_at: null,
          dlr_number_retry: 0,
          page: '1',
          message_encoding: 'GSM7',
          amount: 2.5,
        }),
      });
    });

    it('sends from the account local number, as an international number without +, when use_local_number is set', async () => {
      const tenant = await createTenant(t);
      await t.admin.addLocalNumber(tenant.accountId, '+2250102030405');
      const to = nextPhone();

      const sent = await sendAndDeliver(tenant, to, { use_local_number: true });

      expect(client.submitsTo(to)).toEqual([
        expect.objectContaining({ sourceAddr: '2250102030405', sourceTon: 1, destinationAddr: to.slice(1) }),
      ]);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ local_number: '+2250102030405', status: 'sent' }),
      );
    });

    it('gives an SMS of POST /sms/send its validity_period, counted by the SMSC from when it takes the message (2 days by default)', async () => {
      const tenant = await createTenant(t);
      const [shortLived, byDefault] = [nextPhone(), nextPhone()];
      const before = Date.now();

      await client.sendSms(tenant, { to: shortLived, message: 'Votre colis arrive.', validity_period: 90 });
      await client.sendSms(tenant, { to: byDefault, message: 'Votre colis arrive.' });
      await t.deliver();
      const after = Date.now();

      const validityOf = (to: string) => (client.submitsTo(to)[0]?.validityPeriod as Date).getTime();
      expect(validityOf(shortLived)).toBeGreaterThanOrEqual(before + 90 * MINUTE_MS);
      expect(validityOf(shortLived)).toBeLessThanOrEqual(after + 90 * MINUTE_MS);
      expect(validityOf(byDefault)).toBeGreaterThanOrEqual(before + 2880 * MINUTE_MS);
      expect(validityOf(byDefault)).toBeLessThanOrEqual(after + 2880 * MINUTE_MS);
    });

    it('sends a text outside GSM-7 as UCS-2 (data_coding 8)', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();

      const sent = await sendAndDeliver(tenant, to, { message: 'Ваш код: ##OTP##' });

      expect(client.submitsTo(to)).toEqual([expect.objectContaining({ dataCoding: 8, text: `Ваш код: ${sent.code}`, udh: [] })]);
    });

    it('never hands a message sent with a test key to the SMSC', async () => {
      const tenant = await createTenant(t);
      const testKey = await t.admin.createApiKey(tenant.userId, true);
      const sandbox = { ...tenant, auth: `Bearer ${testKey.api_key}` };
      const to = nextPhone();

      const sent = await sendAndDeliver(sandbox, to);

      expect(client.submitsTo(to)).toEqual([]);
      expect((await client.smsOut(sandbox, sent.uniq_id)).body.data).toEqual(expect.objectContaining({ status: 'sent', amount: 0 }));
      expect(await client.balanceOf(tenant)).toBe(1000);
    });
  });

  describe('long messages', () => {
    const UCS2_TEXT = 'Ваш код подтверждения: ##OTP##. Никому его не сообщайте, даже сотрудникам банка. Спасибо!';

    it('submits a two-part UCS-2 message as two parts with one 8-bit concatenation reference', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();

      const sent = await sendAndDeliver(tenant, to, { message: UCS2_TEXT });

      const parts = client.submitsTo(to);
      const reference = parts[0]?.udh[0]?.[2];
      expect(parts.map((part) => ({ dataCoding: part.dataCoding, registeredDelivery: part.registeredDelivery, ie: ieOf(part) }))).toEqual([
        { dataCoding: 8, registeredDelivery: 1, ie: [[0x00, 0x03, reference, 0x02, 0x01]] },
        { dataCoding: 8, registeredDelivery: 1, ie: [[0x00, 0x03, reference, 0x02, 0x02]] },
      ]);
      expect(parts.map((part) => part.text).join('')).toBe(UCS2_TEXT.replace('##OTP##', sent.code));
      expect(parts[0].text).toHaveLength(67);
    });

    it('resends only the part the SMSC throttled, under the same reference', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      smsc.answerNext(smpp.ESME_ROK, smpp.ESME_RTHROTTLED);

      const sent = await sendAndDeliver(tenant, to, { message: UCS2_TEXT });
      t.clock.advance(5);
      await until(
        () => client.statusOf(sent.uniq_id),
        (status) => status !== 'pending',
      );

      const parts = client.submitsTo(to);
      const reference = parts[0]?.udh[0]?.[2];
      expect(parts.map(ieOf)).toEqual([[[0x00, 0x03, reference, 0x02, 0x01]], [[0x00, 0x03, reference, 0x02, 0x02]]]);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'sent', provider_id: parts[0]?.messageId, page: '2' }),
      );
    });

    it('bills a two-part message as two segments and shows its page count', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();

      const sent = await sendAndDeliver(tenant, to, { message: UCS2_TEXT });

      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({
          page: '2',
          message_encoding: 'UCS2',
          amount: 5,
          status: 'sent',
          provider_id: client.submitsTo(to)[0].messageId,
        }),
      );
      expect(await client.balanceOf(tenant)).toBe(995);
    });

    it('moves a GSM-7 extension character that would straddle the part boundary whole into the next part', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const message = `${'A'.repeat(146)}##OTP##€ fin du message`;

      const sent = await sendAndDeliver(tenant, to, { message });

      const parts = client.submitsTo(to);
      expect(parts.map((part) => ({ dataCoding: part.dataCoding, text: part.text }))).toEqual([
        { dataCoding: 0, text: `${'A'.repeat(146)}${sent.code}` },
        { dataCoding: 0, text: '€ fin du message' },
      ]);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(expect.objectContaining({ page: '2', amount: 5 }));
    });
    it('moves a surrogate pair that would straddle the UCS-2 part boundary whole into the next part', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const message = `Код ##OTP## ${'ж'.repeat(55)}😀 конец`;

      const sent = await sendAndDeliver(tenant, to, { message });

      expect(client.submitsTo(to).map((part) => ({ dataCoding: part.dataCoding, text: part.text }))).toEqual([
        { dataCoding: 8, text: `Код ${sent.code} ${'ж'.repeat(55)}` },
        { dataCoding: 8, text: '😀 конец' },
      ]);
    });
  });

  describe('delivery receipts', () => {
    it('moves the message to delivered on a DELIVRD receipt', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const sent = await sendAndDeliver(tenant, to);

      const acknowledged = await smsc.sendReceipt(client.submitsTo(to)[0].messageId, 'DELIVRD');

      expect(acknowledged).toBe(smpp.ESME_ROK);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'delivered', provider_status: 'DELIVRD', done_at: expect.stringMatching(ISO_UTC) }),
      );
    });

    it.each(['UNDELIV', 'EXPIRED', 'REJECTD'])('moves the message to undelivered on a %s receipt, without refund', async (stat) => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const sent = await sendAndDeliver(tenant, to);

      expect(await smsc.sendReceipt(client.submitsTo(to)[0].messageId, stat)).toBe(smpp.ESME_ROK);

      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'undelivered', provider_status: stat, done_at: expect.stringMatching(ISO_UTC) }),
      );
      expect(await client.balanceOf(tenant)).toBe(997.5);
      expect(await client.ledgerOf(tenant)).toEqual([
        [100_000, 'opening'],
        [-250, 'debit'],
      ]);
    });

    it('reads a receipt from the receipted_message_id and message_state TLVs', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const sent = await sendAndDeliver(tenant, to);

      expect(await smsc.sendReceipt(client.submitsTo(to)[0].messageId, 'UNDELIV', { tlv: true })).toBe(smpp.ESME_ROK);

      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'undelivered', provider_status: 'UNDELIV' }),
      );
    });

    it('keeps a receipt for an id not yet recorded, and applies it when the message gets that id', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const nextSmscId = String(1000 + smsc.submits.length);

      const { sent, acknowledged, kept } = await t.withDeliveryPaused(async () => {
        const sent = await client.send(tenant, to);
        const acknowledged = await smsc.sendReceipt(nextSmscId, 'DELIVRD');
        const kept = await t.database.run((sql) =>
          sql.all('SELECT provider, provider_id, outcome, provider_status FROM delivery_receipt WHERE provider_id = ?', [nextSmscId]),
        );
        return { sent, acknowledged, kept };
      });
      await t.deliver();

      expect(acknowledged).toBe(smpp.ESME_ROK);
      expect(kept).toEqual([{ provider: 'default', provider_id: nextSmscId, outcome: 'delivered', provider_status: 'DELIVRD' }]);
      expect(client.submitsTo(to).map((submit) => submit.messageId)).toEqual([nextSmscId]);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'delivered', provider_status: 'DELIVRD', provider_id: nextSmscId }),
      );
      expect(await t.database.run((sql) => sql.all('SELECT id FROM delivery_receipt WHERE provider_id = ?', [nextSmscId]))).toEqual([]);
    });

    it('moves a multi-part message on the receipt of its second part', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      const sent = await sendAndDeliver(tenant, to, { message: `${'x'.repeat(160)} ##OTP##` });
      const parts = client.submitsTo(to);
      expect(parts).toHaveLength(2);

      expect(await smsc.sendReceipt(parts[1].messageId, 'UNDELIV')).toBe(smpp.ESME_ROK);

      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'undelivered', provider_status: 'UNDELIV', provider_id: parts[0].messageId }),
      );
    });

    it('applies receipts sent together in the order they came: each change once, a repeat and an intermediate state changing nothing', async () => {
      const tenant = await createTenant(t);
      const [a, b, c] = [nextPhone(), nextPhone(), nextPhone()];
      const sent = [await client.send(tenant, a), await client.send(tenant, b), await client.send(tenant, c)];
      await t.deliver();
      const id = (to: string) => client.submitsTo(to)[0].messageId;
      const unknownId = `${id(c)}-unknown`;

      const acknowledged = await Promise.all([
        smsc.sendReceipt(id(a), 'DELIVRD'),
        smsc.sendReceipt(id(b), 'UNDELIV'),
        smsc.sendReceipt(id(c), 'DELIVRD'),
        smsc.sendReceipt(id(c), 'EXPIRED'),
        smsc.sendReceipt(id(a), 'DELIVRD'),
        smsc.sendReceipt(id(b), 'ACCEPTD'),
        smsc.sendReceipt(unknownId, 'DELIVRD'),
      ]);

      expect(acknowledged).toEqual(Array(7).fill(smpp.ESME_ROK));
      const states = await t.database.run((sql) =>
        sql.all<{ uniq_id: string; status: string; provider_status: string; event_sequence: number | string }>(
          `SELECT uniq_id, status, provider_status, event_sequence FROM message_out WHERE uniq_id IN (?, ?, ?) ORDER BY recipient`,
          sent.map(({ uniq_id }) => uniq_id),
        ),
      );
      // pending → sent is the first change; each outcome that moves the message counts one more
      expect(states.map((state) => ({ ...state, event_sequence: Number(state.event_sequence) }))).toEqual([
        { uniq_id: sent[0].uniq_id, status: 'delivered', provider_status: 'DELIVRD', event_sequence: 2 },
        { uniq_id: sent[1].uniq_id, status: 'undelivered', provider_status: 'UNDELIV', event_sequence: 2 },
        { uniq_id: sent[2].uniq_id, status: 'undelivered', provider_status: 'EXPIRED', event_sequence: 3 },
      ]);
      expect(await t.database.run((sql) => sql.all('SELECT provider_status FROM delivery_receipt WHERE provider_id = ?', [unknownId]))).toEqual([
        { provider_status: 'DELIVRD' },
      ]);
    });

    it('applies every receipt that the SMSC sends right behind its submit response', async () => {
      const tenant = await createTenant(t);
      const session = smsc.sessions[0];
      const acknowledgements: Array<Promise<number>> = [];
      const receiptBehindResponse = () =>
        acknowledgements.push(smsc.sendReceipt(smsc.submits[smsc.submits.length - 1].messageId, 'DELIVRD'));
      session.on('submit_sm', receiptBehindResponse);
      try {
        const sent = await t.withDeliveryPaused(async () => {
          const sent = [];
          for (let i = 0; i < 60; i++) sent.push(await client.send(tenant, nextPhone()));
          return sent;
        });
        await t.deliver();
        expect(new Set(await Promise.all(acknowledgements))).toEqual(new Set([smpp.ESME_ROK]));

        const statuses = await Promise.all(sent.map(({ uniq_id }) => client.statusOf(uniq_id)));
        expect(statuses.filter((status) => status !== 'delivered')).toEqual([]);
      } finally {
        session.off('submit_sm', receiptBehindResponse);
      }
    });
  });

  describe('refusals', () => {
    it('fails a message the SMSC refuses for good, with provider_status REJECTD, and refunds it once', async () => {
      const tenant = await createTenant(t, { balance: '100' });
      const to = nextPhone();
      smsc.answerNext(smpp.ESME_RINVDSTADR);

      const sent = await sendAndDeliver(tenant, to);
      await t.deliver();

      expect(client.submitsTo(to)).toEqual([]);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({
          status: 'failed',
          provider: 'default',
          provider_status: 'REJECTD',
          done_at: expect.stringMatching(ISO_UTC),
        }),
      );
      expect(await client.balanceOf(tenant)).toBe(100);
      expect(await client.ledgerOf(tenant)).toEqual([
        [10_000, 'opening'],
        [-250, 'debit'],
        [250, 'refund'],
      ]);
      expect(await t.admin.audit(tenant.accountId)).toEqual({ balance: 100, ledger_sum: 100, consistent: true });
      expect(await client.outboxOf(sent.uniq_id)).toEqual([]);
    });

    it('refuses the code of a message the SMSC refused', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      smsc.answerNext(smpp.ESME_RINVDSTADR);
      const sent = await sendAndDeliver(tenant, to);

      const res = await client.verify(tenant, to, sent.code);

      expect(res.body).toEqual(CODE_INVALID);
    });

    it('retries a throttled submit and then sends it, counting the retry', async () => {
      const tenant = await createTenant(t);
      const to = nextPhone();
      smsc.answerNext(smpp.ESME_RTHROTTLED);

      const sent = await sendAndDeliver(tenant, to);
      t.clock.advance(5);
      await until(
        () => client.statusOf(sent.uniq_id),
        (status) => status !== 'pending',
      );

      const data = (await client.smsOut(tenant, sent.uniq_id)).body.data;
      expect(data).toEqual(expect.objectContaining({ status: 'sent', provider: 'default', provider_id: client.submitsTo(to)[0]?.messageId }));
      expect(data.dlr_number_retry).toBeGreaterThanOrEqual(1);
      expect(client.submitsTo(to)).toHaveLength(1);
      expect(await client.balanceOf(tenant)).toBe(997.5);
    });

    it('fails and refunds a message the SMSC refused for now ten times', async () => {
      const tenant = await createTenant(t, { balance: '100' });
      const to = nextPhone();
      smsc.answerNext(...Array.from({ length: 10 }, () => smpp.ESME_RSYSERR));

      const sent = await client.send(tenant, to);
      await t.deliver();
      for (let attempt = 2; attempt <= 10; attempt++) {
        t.clock.advance(40);
        await t.deliver();
      }

      expect(client.submitsTo(to)).toEqual([]);
      expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
        expect.objectContaining({ status: 'failed', provider: 'default', dlr_number_retry: 10, done_at: expect.stringMatching(ISO_UTC) }),
      );
      expect(await client.ledgerOf(tenant)).toEqual([
        [10_000, 'opening'],
        [-250, 'debit'],
        [250, 'refund'],
      ]);
      expect(await t.admin.audit(tenant.accountId)).toEqual({ balance: 100, ledger_sum: 100, consistent: true });
    });
  });
});

describe(`${SmppSmsProvider.name} while the SMSC is down`, () => {
  let smsc: FakeSmsc;
  let t: TestApp;
  let client: ReturnType<typeof clientOf>;

  beforeAll(async () => {
    smsc = new FakeSmsc();
    await smsc.start();
    t = await startSmppApp(smsc);
    client = clientOf(t, smsc);
  });
  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
  });

  /** Stops the SMSC, runs `work`, and brings the SMSC back on the same port, resolving once the app is bound again. */
  const withSmscDown = async <T>(work: () => Promise<T>): Promise<T> => {
    const port = smsc.port;
    await smsc.stop();
    const result = await work();
    const binds = smsc.binds;
    await smsc.start(port);
    await until(
      () => smsc.binds,
      (count) => count > binds,
    );
    return result;
  };

  it('keeps messages pending, and hands them over as soon as the SMSC binds again, before their retry is due, counting no retry', async () => {
    const tenant = await createTenant(t);
    const recipients = [nextPhone(), nextPhone()];

    const waiting = await withSmscDown(async () => {
      const sent = [];
      for (const to of recipients) sent.push(await client.send(tenant, to));
      await t.deliver();
      for (let attempt = 0; attempt < 5; attempt++) {
        t.clock.advance(40);
        await t.deliver();
      }
      const state = [];
      for (const { uniq_id } of sent) {
        state.push({ status: await client.statusOf(uniq_id), outbox: await client.outboxOf(uniq_id) });
      }
      return { sent, state, now: t.clock.now().getTime() };
    });

    expect(waiting.state.map((entry) => entry.status)).toEqual(['pending', 'pending']);
    for (const entry of waiting.state) {
      expect(entry.outbox).toHaveLength(1);
      expect(readTime(entry.outbox[0].available_at).getTime()).toBeGreaterThan(waiting.now + 20_000);
    }
    for (const { uniq_id } of waiting.sent)
      await until(
        () => client.statusOf(uniq_id),
        (status) => status === 'sent',
        10_000,
      );
    expect(recipients.map((to) => client.submitsTo(to).length)).toEqual([1, 1]);
    for (const { uniq_id } of waiting.sent) {
      const data = (await client.smsOut(tenant, uniq_id)).body.data;
      // waiting for the SMSC is not failing: only the SMSC's own refusals count
      expect(data.dlr_number_retry).toBe(0);
    }
  });

  it('leaves a scheduled message for its time when the SMSC binds again, while the waiting ones go at once', async () => {
    const tenant = await createTenant(t);
    const [waitingTo, scheduledTo] = [nextPhone(), nextPhone()];
    const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();

    const { waiting, scheduled } = await withSmscDown(async () => {
      const waiting = await client.send(tenant, waitingTo);
      await t.deliver();
      const scheduled = await client.sendSms(tenant, { to: scheduledTo, message: 'Rendez-vous demain.', send_at: sendAt });
      return { waiting, scheduled };
    });
    await until(
      () => client.statusOf(waiting.uniq_id),
      (status) => status === 'sent',
      10_000,
    );
    await t.deliver();

    expect(await client.statusOf(scheduled.uniq_id)).toBe('scheduled');
    expect(client.submitsTo(scheduledTo)).toEqual([]);
    t.clock.advance(3600);
    await t.deliver();
    expect(await client.statusOf(scheduled.uniq_id)).toBe('sent');
    expect(client.submitsTo(scheduledTo)).toHaveLength(1);
  });

  it('fails and refunds an OTP whose code expired before the SMSC came back, without ever submitting it', async () => {
    const tenant = await createTenant(t, { balance: '100' });
    const to = nextPhone();

    const sent = await withSmscDown(async () => {
      const sent = await client.send(tenant, to, { otp_expiry: 60 });
      await t.deliver();
      t.clock.advance(61);
      await t.deliver();
      return sent;
    });
    await t.deliver();

    expect(client.submitsTo(to)).toEqual([]);
    expect((await client.smsOut(tenant, sent.uniq_id)).body.data).toEqual(
      expect.objectContaining({ status: 'failed', done_at: expect.stringMatching(ISO_UTC) }),
    );
    expect(await client.balanceOf(tenant)).toBe(100);
    expect(await client.ledgerOf(tenant)).toEqual([
      [10_000, 'opening'],
      [-250, 'debit'],
      [250, 'refund'],
    ]);
    expect(await t.admin.audit(tenant.accountId)).toEqual({ balance: 100, ledger_sum: 100, consistent: true });
  });
});
