import { OutboxWorker } from '../src/delivery/outbox.worker.js';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const OUTAGE_SECONDS = 300;
const OTPS = 5;
const BULK = 20;

/** The only SMSC (`SMPP_URL` alone) down for five minutes: waiting is not failing. */
describe(`${OutboxWorker.name} through a five-minute outage of the only SMSC`, () => {
  const smsc = new FakeSmsc();
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    await smsc.start();
    t = await startTestApp({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url });
    await until(() => smsc.binds, (binds) => binds > 0);
    tenant = await createTenant(t, { balance: '1000.00' });
  });
  afterAll(async () => {
    await t?.close();
    await smsc.stop();
    Object.assign(process.env, { SMS_PROVIDER: 'log', SMPP_URL: '' });
  });

  const post = (path: string, body: object) => t.http().post(path).set('Authorization', tenant.auth).send(body);
  const rows = () =>
    t.database.run((sql) =>
      sql.all<{ uniq_id: string; status: string; dlr_number_retry: number | string; provider_status: string | null }>(
        'SELECT uniq_id, status, dlr_number_retry, provider_status FROM message_out WHERE account_id = ?',
        [tenant.accountId],
      ),
    );
  /** Each waiting message's attempts: an OTP's on its outbox entry, a bulk message's in its chunk's progress. */
  const attemptsWaiting = async () => {
    const entries = await t.database.run((sql) =>
      sql.all<{ bulk: unknown; messages: number | string; attempts: number | string; progress: string | null }>('SELECT bulk, messages, attempts, progress FROM outbox ORDER BY id'),
    );
    return entries.flatMap((entry) => {
      if (!Number(entry.bulk)) return [Number(entry.attempts)];
      const progress = (entry.progress === null ? Array(Number(entry.messages)).fill(null) : JSON.parse(entry.progress)) as Array<null | 'done' | { attempts: number }>;
      return progress.map((message) => (message === null || message === 'done' ? 0 : message.attempts));
    });
  };
  const ledger = async () =>
    (await t.database.run((sql) => sql.all<{ amount: number | string; kind: string }>('SELECT amount, kind FROM ledger_entry WHERE account_id = ? ORDER BY id', [tenant.accountId]))).map(
      (row) => [Number(row.amount), row.kind],
    );

  it('hands every waiting OTP and bulk message over once it is back, none failed or refunded, no retry counted; an OTP whose validity ended meanwhile fails and is refunded once', async () => {
    const port = smsc.port;
    await smsc.stop();

    const otps = [];
    for (let n = 0; n < OTPS; n++) otps.push((await post('/v1/otp/send', smsBody(`+225071000000${n}`, { otp_expiry: 900 })).expect(200)).body.data.uniq_id as string);
    const shortLived = (await post('/v1/otp/send', smsBody('+2250710000099', { otp_expiry: 120 })).expect(200)).body.data.uniq_id as string;
    const lot = Array.from({ length: BULK }, (_, n) => `+22505100000${String(n).padStart(2, '0')}`);
    await post('/v1/sms/send', { to: lot, message: 'Votre colis arrive.' }).expect(200);

    for (let waited = 0; waited <= OUTAGE_SECONDS; waited += 15) {
      await t.deliver();
      t.clock.advance(15);
    }
    await t.deliver();
    const during = await rows();
    expect(during.filter((row) => row.uniq_id !== shortLived).map((row) => row.status)).toEqual(Array(OTPS + BULK).fill('pending'));
    expect(during.find((row) => row.uniq_id === shortLived)).toEqual(expect.objectContaining({ status: 'failed', provider_status: 'EXPIRED' }));
    expect(await attemptsWaiting()).toEqual(Array(OTPS + BULK).fill(0));

    await smsc.start(port);
    await until(rows, (all) => all.filter((row) => row.status === 'sent').length === OTPS + BULK, 60_000, 200);

    const after = await rows();
    expect(after.map((row) => Number(row.dlr_number_retry))).toEqual(Array(OTPS + BULK + 1).fill(0));
    expect(smsc.submits).toHaveLength(OTPS + BULK);
    expect(new Set(smsc.submits.map((submit) => submit.destinationAddr)).size).toBe(OTPS + BULK);
    expect(await ledger()).toEqual([
      [100_000, 'opening'],
      ...Array(OTPS + 1).fill([-250, 'debit']),
      [-BULK * 250, 'debit'],
      [250, 'refund'],
    ]);
    expect(await t.admin.audit(tenant.accountId)).toEqual(expect.objectContaining({ consistent: true }));
  }, 120_000);
});
