import smpp from 'smpp';
import { OutboxWorker } from '../src/delivery/outbox.worker.js';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const LOT_SIZE = 2000;

/** `+2250102` followed by `n` on 6 digits: a valid Ivorian number, one per member of the lot. */
const member = (n: number) => `+2250102${String(n).padStart(6, '0')}`;

/** A lot of thousands handed over to the SMSC through the bulk lane, beside OTPs, with the SMSC throttling. */
describe(`${OutboxWorker.name} at volume`, () => {
  let smsc: FakeSmsc;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    smsc = new FakeSmsc();
    await smsc.start();
    t = await startTestApp({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, SMPP_WINDOW: '10' });
    await until(
      () => smsc.binds,
      (binds) => binds > 0,
    );
    tenant = await createTenant(t, { balance: '100000.00' });
  });
  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
  });

  const post = (path: string, body: object) => t.http().post(path).set('Authorization', tenant.auth).send(body);
  const submitsTo = (phones: ReadonlySet<string>) => smsc.submits.filter((submit) => phones.has(`+${submit.destinationAddr}`));
  const lotRows = (lot: string) =>
    t.database.run((sql) =>
      sql.all<{ status: string; dlr_number_retry: number | string }>('SELECT status, dlr_number_retry FROM message_out WHERE account_id = ? AND lot = ?', [
        tenant.accountId,
        lot,
      ]),
    );
  const statusesOf = async (lot: string) => {
    const counts: Record<string, number> = {};
    for (const { status } of await lotRows(lot)) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  it(
    'hands a lot of 2,000 over with every 10th submit throttled: each message taken once, an OTP sent mid-lot within 2 s, receipts delivered',
    async () => {
      const group = (await post('/v1/group', { name: 'Clients' }).expect(201)).body.data.id as string;
      const phones = Array.from({ length: LOT_SIZE }, (_, n) => member(n));
      for (let start = 0; start < LOT_SIZE; start += 1000) {
        const contacts = phones.slice(start, start + 1000).map((phone, n) => ({ phone, name: `Client ${start + n}` }));
        await post('/v1/contact/bulk', { contacts, group_ids: [group] }).expect(200);
      }
      const lotPhones = new Set(phones);
      const receivedBefore = smsc.received;
      smsc.answerEvery(10, smpp.ESME_RTHROTTLED);

      const sent = await post('/v1/sms/send', { group_ids: [group], message: 'Bonjour ##NAME##, votre commande est prête.', lot: 'volume' }).expect(200);
      expect(sent.body.data).toEqual(expect.objectContaining({ lot: 'volume', count: LOT_SIZE, scheduled: false }));

      await until(
        () => submitsTo(lotPhones).length,
        (count) => count >= 200,
        30_000,
        10,
      );
      const otpPhone = '+2250709999999';
      const otpSent = Date.now();
      await post('/v1/otp/send', smsBody(otpPhone, { otp_expiry: 600 })).expect(200);
      const otpIndex = await until(
        () => smsc.submits.findIndex((submit) => submit.destinationAddr === otpPhone.slice(1)),
        (index) => index >= 0,
        5_000,
        5,
      );
      const otpLatencyMs = Date.now() - otpSent;
      const lotBeforeOtp = submitsTo(lotPhones).filter((submit) => smsc.submits.indexOf(submit) < otpIndex).length;

      await until(
        () => submitsTo(lotPhones).length,
        (count) => count >= LOT_SIZE,
        90_000,
      );
      await until(
        () => statusesOf('volume'),
        (counts) => counts.sent === LOT_SIZE,
        30_000,
      );

      expect(otpLatencyMs).toBeLessThan(2_000);
      // the OTP was not queued behind the lot: most of it went to the SMSC after
      expect(lotBeforeOtp).toBeLessThan(LOT_SIZE / 2);

      const lotSubmits = submitsTo(lotPhones);
      const throttled = smsc.received - receivedBefore - lotSubmits.length - 1;
      expect(lotSubmits).toHaveLength(LOT_SIZE);
      expect(new Set(lotSubmits.map((submit) => submit.destinationAddr)).size).toBe(LOT_SIZE);
      expect(throttled).toBeGreaterThanOrEqual(LOT_SIZE / 10);
      const otpRetries = await t.database.run((sql) =>
        sql.get<{ dlr_number_retry: number | string }>('SELECT dlr_number_retry FROM message_out WHERE recipient = ?', [otpPhone]),
      );
      const lotRetries = (await lotRows('volume')).reduce((sum, row) => sum + Number(row.dlr_number_retry), 0);
      expect(lotRetries + Number(otpRetries?.dlr_number_retry)).toBe(throttled);

      for (let start = 0; start < LOT_SIZE; start += 200) {
        const acknowledged = await Promise.all(lotSubmits.slice(start, start + 200).map((submit) => smsc.sendReceipt(submit.messageId, 'DELIVRD')));
        expect(new Set(acknowledged)).toEqual(new Set([smpp.ESME_ROK]));
      }
      expect(await statusesOf('volume')).toEqual({ delivered: LOT_SIZE });
      expect(await t.admin.audit(tenant.accountId)).toEqual(expect.objectContaining({ consistent: true }));
    },
    180_000,
  );
});
