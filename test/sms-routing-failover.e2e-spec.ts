import { RoutingMetrics } from '../src/delivery/routing.metrics.js';
import { SmsRouter } from '../src/delivery/sms-router.js';
import { FakeSmsc, type ReceivedSubmit } from './support/fake-smsc.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { connector, forgetRouting, healthOf, routingFile, startRoutedApp, submitsTo } from './support/routing.js';
import type { TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const LOT_SIZE = 2000;
const OTPS = 100;
const PARTS_WAIT_SECONDS = 120;

const member = (n: number) => `+2250102${String(n).padStart(6, '0')}`;
const otpNumber = (n: number) => `+2250709${String(n).padStart(6, '0')}`;
/** Four GSM-7 parts. */
const LONG_TEXT = Array.from({ length: 4 }, (_, part) => `Partie ${part + 1} `.padEnd(150, String(part + 1))).join('');

/** Counters of the app's routing metrics, by their labels joined with commas. */
async function countsOf(t: TestApp, metric: keyof RoutingMetrics): Promise<Record<string, number>> {
  const counter = t.app.get(RoutingMetrics)[metric] as unknown as { get(): Promise<{ values: Array<{ labels: Record<string, string>; value: number }> }> };
  const { values } = await counter.get();
  return Object.fromEntries(values.map(({ labels, value }) => [Object.values(labels).join(','), value]));
}

/** A primary SMSC and a backup behind one failover route: the primary dies under traffic, and during a long message. */
describe(`${SmsRouter.name} when a connector dies`, () => {
  const primary = new FakeSmsc();
  const backup = new FakeSmsc();
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    await Promise.all([primary.start(), backup.start()]);
    const file = routingFile({
      connectors: [connector('primary', primary, { window: 10 }), connector('backup', backup, { window: 10 })],
      routes: [{ name: 'ci', match: { prefixes: ['+225'] }, strategy: 'failover', targets: [{ connector: 'primary' }, { connector: 'backup' }] }],
      parts_wait_seconds: PARTS_WAIT_SECONDS,
    });
    t = await startRoutedApp(file, [primary, backup]);
    tenant = await createTenant(t, { balance: '100000.00' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([primary.stop(), backup.stop()]);
    forgetRouting();
  });

  const post = (path: string, body: object) => t.http().post(path).set('Authorization', tenant.auth).send(body);
  const statusesOf = async (accountId: string) => {
    const rows = await t.database.run((sql) => sql.all<{ status: string }>('SELECT status FROM message_out WHERE account_id = ?', [accountId]));
    const counts: Record<string, number> = {};
    for (const { status } of rows) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };
  /** Brings a dead SMSC back on its port, and waits for the app to bind to it again. */
  const revive = async (smsc: FakeSmsc, port: number) => {
    const binds = smsc.binds;
    await smsc.start(port);
    await until(() => smsc.binds, (count) => count > binds, 60_000);
  };

  it(
    'hands 2,000 bulk messages and 100 OTPs over once each when the primary dies mid-lot, OTPs within seconds; its circuit opens, and closes when it is back',
    async () => {
      const phones = Array.from({ length: LOT_SIZE }, (_, n) => member(n));
      for (let start = 0; start < LOT_SIZE; start += 1000) {
        await post('/v1/sms/send', { to: phones.slice(start, start + 1000), message: 'Votre commande est prête.' }).expect(200);
      }
      await until(() => primary.submits.length, (count) => count >= 300, 60_000, 10);

      const primaryPort = primary.port;
      const otpsSentAt = new Map<string, number>();
      const otps = (async () => {
        for (let n = 0; n < OTPS; n++) {
          otpsSentAt.set(otpNumber(n), Date.now());
          await post('/v1/otp/send', smsBody(otpNumber(n), { otp_expiry: 900 })).expect(200);
        }
      })();
      await until(() => otpsSentAt.size, (sent) => sent >= 10, 30_000, 5);
      await primary.stop();
      await until(() => healthOf(t, 'primary').circuit, (circuit) => circuit === 'open', 30_000);
      await otps;

      await until(() => statusesOf(tenant.accountId), (counts) => counts.sent === LOT_SIZE + OTPS, 150_000, 200);

      const everyNumber = [...phones, ...otpsSentAt.keys()];
      const taken = (to: string) => [...submitsTo(primary, to), ...submitsTo(backup, to)];
      expect(everyNumber.filter((to) => taken(to).length === 0)).toEqual([]);
      // a submit whose bind died before its answer is offered again (at least once): only those may be taken twice
      const twice = everyNumber.filter((to) => taken(to).length > 1);
      expect(twice.length).toBeLessThanOrEqual((await countsOf(t, 'resubmitted')).primary ?? 0);
      expect(everyNumber.filter((to) => taken(to).length > 2)).toEqual([]);
      expect(backup.submits.length).toBeGreaterThan(0);

      const firstArrival = (to: string) => Math.min(...taken(to).map((submit: ReceivedSubmit) => submit.receivedAt));
      const otpDelays = [...otpsSentAt].map(([to, sentAt]) => firstArrival(to) - sentAt);
      expect(Math.max(...otpDelays)).toBeLessThan(5_000);

      await revive(primary, primaryPort);
      const after = otpNumber(OTPS);
      await post('/v1/otp/send', smsBody(after, { otp_expiry: 900 })).expect(200);
      await until(() => submitsTo(primary, after).length, (count) => count === 1, 30_000);
      await until(() => healthOf(t, 'primary').circuit, (circuit) => circuit === 'closed');
    },
    300_000,
  );

  describe('a four-part message whose connector dies after its second part', () => {
    let longTenant: Tenant;

    beforeAll(async () => {
      longTenant = await createTenant(t, { balance: '1000.00' });
    });

    const sendLong = async (to: string) => {
      const res = await t.http().post('/v1/sms/send').set('Authorization', longTenant.auth).send({ to, message: LONG_TEXT });
      expect(res.body.data).toEqual(expect.objectContaining({ count: 1, amount: 10 }));
      return res.body.data.messages[0].uniq_id as string;
    };
    const referenceOf = (submit: ReceivedSubmit) => submit.udh[0]![2];
    const partOf = (submit: ReceivedSubmit) => [submit.udh[0]![3], submit.udh[0]![4]];
    const statusOf = async (uniqId: string) =>
      (await t.database.run((sql) => sql.get<{ status: string; provider: string }>('SELECT status, provider FROM message_out WHERE uniq_id = ?', [uniqId])))!;

    it('sends parts 3 and 4 through the same connector under the same reference once it is back within the wait', async () => {
      const to = '+2250711000001';
      const port = primary.port;
      primary.dieAfter(2);

      const uniqId = await sendLong(to);
      await t.deliver();
      await until(() => healthOf(t, 'primary').binds.bound, (bound) => bound === 0);
      await t.deliver();
      expect(await statusOf(uniqId)).toEqual({ status: 'pending', provider: null });
      expect(submitsTo(backup, to)).toEqual([]);

      await revive(primary, port);
      await until(() => statusOf(uniqId), (message) => message.status === 'sent', 30_000);

      const parts = submitsTo(primary, to);
      expect(parts.map(partOf)).toEqual([[4, 1], [4, 2], [4, 3], [4, 4]]);
      expect(new Set(parts.map(referenceOf)).size).toBe(1);
      expect(submitsTo(backup, to)).toEqual([]);
      expect(await statusOf(uniqId)).toEqual({ status: 'sent', provider: 'primary' });
    });

    it('sends the whole message again through another connector, under a new reference, once the wait is over', async () => {
      const to = '+2250711000002';
      const port = primary.port;
      primary.dieAfter(2);
      const reroutedBefore = (await countsOf(t, 'rerouted'))['primary,backup,parts'] ?? 0;

      const uniqId = await sendLong(to);
      await t.deliver();
      await until(() => healthOf(t, 'primary').binds.bound, (bound) => bound === 0);
      await t.deliver();
      expect(await statusOf(uniqId)).toEqual({ status: 'pending', provider: null });

      t.clock.advance(PARTS_WAIT_SECONDS + 1);
      await t.deliver();
      await until(() => statusOf(uniqId), (message) => message.status === 'sent', 30_000);

      const first = submitsTo(primary, to);
      const whole = submitsTo(backup, to);
      expect(first.map(partOf)).toEqual([[4, 1], [4, 2]]);
      expect(whole.map(partOf)).toEqual([[4, 1], [4, 2], [4, 3], [4, 4]]);
      expect(new Set(whole.map(referenceOf)).size).toBe(1);
      expect(referenceOf(whole[0]!)).not.toBe(referenceOf(first[0]!));
      expect(whole.map((submit) => submit.text).join('')).toBe(LONG_TEXT);
      expect(await statusOf(uniqId)).toEqual({ status: 'sent', provider: 'backup' });
      expect((await countsOf(t, 'rerouted'))['primary,backup,parts']).toBe(reroutedBefore + 1);
      await revive(primary, port);
    });
  });
});
