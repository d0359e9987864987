import smpp from 'smpp';
import { FlowControl } from '../src/delivery/flow-control.js';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { connector, forgetRouting, routingFile, startRoutedApp } from './support/routing.js';
import type { TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const TPS = 50;

let numbers = 0;
const nextNumbers = (count: number) => Array.from({ length: count }, () => `+2250701${String(++numbers).padStart(6, '0')}`);

/** The most submits that arrived within any one second. */
function busiestSecond(arrivals: readonly number[]): number {
  const times = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= 1000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** One connector's submit rate: its `tps`, and what it does when the SMSC asks it to slow down. */
describe(`${FlowControl.name} of a connector`, () => {
  let smsc: FakeSmsc;
  let t: TestApp;
  let tenant: Tenant;

  const start = async (settings: Record<string, unknown>) => {
    smsc = new FakeSmsc();
    await smsc.start();
    t = await startRoutedApp(routingFile({ connectors: [connector('only', smsc, settings)], routes: [{ name: 'all', targets: [{ connector: 'only' }] }] }), [smsc]);
    tenant = await createTenant(t, { balance: '100000.00' });
  };
  afterEach(async () => {
    await t?.close();
    await smsc?.stop();
    forgetRouting();
  });

  const send = async (to: string[]) => {
    const res = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to, message: 'Votre colis arrive.' });
    expect(res.body.data).toEqual(expect.objectContaining({ count: to.length }));
  };
  const statuses = async () => {
    const rows = await t.database.run((sql) =>
      sql.all<{ status: string; n: number | string }>('SELECT status, COUNT(*) AS n FROM message_out WHERE account_id = ? GROUP BY status', [tenant.accountId]),
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  };

  it('keeps under its tps while every fifth submit is throttled, and takes every message once', async () => {
    await start({ tps: TPS, window: 10 });
    smsc.answerEvery(5, smpp.ESME_RTHROTTLED);
    const recipients = nextNumbers(300);

    await send(recipients);
    await until(statuses, (counts) => counts.sent === 300, 60_000, 100);

    expect(busiestSecond(smsc.arrivals)).toBeLessThanOrEqual(TPS);
    expect(smsc.submits).toHaveLength(300);
    expect(new Set(smsc.submits.map((submit) => submit.destinationAddr)).size).toBe(300);
    expect(smsc.received - smsc.submits.length).toBeGreaterThanOrEqual(60);
  }, 90_000);

  it('gets 120 messages through an SMSC that enforces 5 submits per second by refusals within 30 s, with under 5 % refused and none failed', async () => {
    await start({ tps: 10, window: 10 });
    smsc.enforceRate(5);
    const recipients = nextNumbers(120);

    await send(recipients);
    await until(statuses, (counts) => counts.sent === 120 || (counts.failed ?? 0) > 0, 60_000, 100);

    expect(await statuses()).toEqual({ sent: 120 });
    const times = smsc.submits.map((submit) => submit.receivedAt);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThanOrEqual(30_000);
    const refused = smsc.received - smsc.submits.length;
    expect(refused / smsc.received).toBeLessThan(0.05);
  }, 90_000);
});
