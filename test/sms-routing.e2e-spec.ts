import smpp from 'smpp';
import { SmsRouter } from '../src/delivery/sms-router.js';
import { newId } from '../src/common/ids.js';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { connector, forgetRouting, healthOf, routingFile, startRoutedApp, submitsTo } from './support/routing.js';
import type { TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const UNROUTED = { status: 400, message: 'erreur_de_validation', errors: ['to: destination non prise en charge'] };

let numbers = 0;
/** A new number under `prefix`, `digits` digits long after the +. */
const numberUnder = (prefix: string, digits: number) => `${prefix}${String(++numbers).padStart(digits - (prefix.length - 1), '0')}`;
const orangeNumber = () => numberUnder('+2250701', 13);
const mtnNumber = () => numberUnder('+2250501', 13);
const senegalNumber = () => numberUnder('+22177', 12);
const cameroonNumber = () => numberUnder('+2376', 12);

/** Three SMSCs, one connector each, and routes by prefix, by network, by turns and by cost. */
describe(`${SmsRouter.name} with three connectors`, () => {
  const orange = new FakeSmsc();
  const mtn = new FakeSmsc();
  const agg = new FakeSmsc();
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    await Promise.all([orange.start(), mtn.start(), agg.start()]);
    const file = routingFile({
      connectors: [connector('orange', orange), connector('mtn', mtn), connector('agg', agg)],
      routes: [
        { name: 'ported-to-mtn', match: { mccmnc: ['61205'] }, strategy: 'failover', targets: [{ connector: 'mtn' }] },
        { name: 'ci-orange', match: { prefixes: ['+22507'] }, strategy: 'failover', targets: [{ connector: 'orange' }, { connector: 'agg' }] },
        { name: 'ci-mtn', match: { prefixes: ['+22505'] }, strategy: 'failover', targets: [{ connector: 'mtn' }, { connector: 'agg' }] },
        {
          name: 'sn-split',
          match: { prefixes: ['+221'] },
          strategy: 'round_robin',
          targets: [
            { connector: 'orange', weight: 2 },
            { connector: 'mtn', weight: 1 },
          ],
        },
        {
          name: 'cm-cheapest',
          match: { prefixes: ['+237'] },
          strategy: 'least_cost',
          targets: [
            { connector: 'orange', cost: 0.03 },
            { connector: 'agg', cost: 0.01 },
            { connector: 'mtn', cost: 0.02 },
          ],
        },
      ],
    });
    t = await startRoutedApp(file, [orange, mtn, agg]);
    tenant = await createTenant(t, { balance: '100000.00' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([orange.stop(), mtn.stop(), agg.stop()]);
    forgetRouting();
  });

  const sendOtp = async (to: string) => {
    const res = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody(to, { otp_expiry: 3600 }));
    expect(res.body).toEqual({ status: 200, message: 'succès', data: expect.objectContaining({ uniq_id: expect.any(String) }) });
    return res.body.data as { uniq_id: string };
  };
  const sendSms = async (to: string[]) => {
    const res = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to, message: 'Votre colis arrive.' });
    expect(res.status).toBe(200);
    return res.body.data as { count: number; amount: number; messages: Array<{ uniq_id: string; to: string }>; rejected: Array<{ to: string; reason: string }> };
  };
  const messageOf = async (uniqId: string) => (await t.http().get(`/v1/sms/out/${uniqId}`).set('Authorization', tenant.auth)).body.data;
  const balance = async () => (await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance as number;

  it('sends each number through the connector of the route its prefix matches, and records that connector as the provider', async () => {
    const [toOrange, toMtn, otpToOrange] = [orangeNumber(), mtnNumber(), orangeNumber()];

    const bulk = await sendSms([toOrange, toMtn]);
    const otp = await sendOtp(otpToOrange);
    await t.deliver();

    expect([submitsTo(orange, toOrange).length, submitsTo(mtn, toOrange).length, submitsTo(agg, toOrange).length]).toEqual([1, 0, 0]);
    expect([submitsTo(orange, toMtn).length, submitsTo(mtn, toMtn).length, submitsTo(agg, toMtn).length]).toEqual([0, 1, 0]);
    expect(submitsTo(orange, otpToOrange)).toHaveLength(1);
    const byTo = new Map(bulk.messages.map((message) => [message.to, message.uniq_id]));
    expect(await messageOf(byTo.get(toOrange)!)).toEqual(expect.objectContaining({ status: 'sent', provider: 'orange', provider_id: submitsTo(orange, toOrange)[0]!.messageId }));
    expect(await messageOf(byTo.get(toMtn)!)).toEqual(expect.objectContaining({ status: 'sent', provider: 'mtn' }));
    expect(await messageOf(otp.uniq_id)).toEqual(expect.objectContaining({ status: 'sent', provider: 'orange' }));
  });

  it('routes by the network of a stored HLR answer younger than HLR_ROUTING_TTL, and by prefix once it is older', async () => {
    const [ported, portedLongAgo] = [orangeNumber(), orangeNumber()];
    const lookup = async (number: string, daysAgo: number) => {
      const at = new Date(t.clock.now().getTime() - daysAgo * 86_400_000);
      await t.database.transaction((sql) =>
        sql.insert('hlr_lookup', {
          id: newId(at),
          account_id: tenant.accountId,
          sandbox: false,
          lot: 'hlr',
          number,
          status: 'completed',
          mccmnc: '61205',
          amount: 1000,
          attempts: 1,
          created_at: at,
          done_at: at,
        }),
      );
    };
    await lookup(ported, 1);
    await lookup(portedLongAgo, 31);

    await sendOtp(ported);
    await sendOtp(portedLongAgo);
    await t.deliver();

    expect([submitsTo(orange, ported).length, submitsTo(mtn, ported).length]).toEqual([0, 1]);
    expect([submitsTo(orange, portedLongAgo).length, submitsTo(mtn, portedLongAgo).length]).toEqual([1, 0]);
  });

  it('spreads 300 messages over round_robin targets weighted 2:1 within 10 %', async () => {
    const recipients = Array.from({ length: 300 }, () => senegalNumber());

    expect((await sendSms(recipients)).count).toBe(300);
    await t.deliver();

    const counts = [orange, mtn].map((smsc) => recipients.filter((to) => submitsTo(smsc, to).length > 0).length);
    expect(counts[0]! + counts[1]!).toBe(300);
    expect(Math.abs(counts[0]! - 200)).toBeLessThanOrEqual(20);
    expect(Math.abs(counts[1]! - 100)).toBeLessThanOrEqual(10);
  });

  it('sends a least_cost route through the cheapest connector that can take the message', async () => {
    const cheapest = cameroonNumber();
    await sendSms([cheapest]);
    await t.deliver();
    expect([submitsTo(agg, cheapest).length, submitsTo(mtn, cheapest).length, submitsTo(orange, cheapest).length]).toEqual([1, 0, 0]);

    const port = agg.port;
    await agg.stop();
    try {
      await until(() => healthOf(t, 'agg').binds.bound, (bound) => bound === 0);
      const next = cameroonNumber();
      await sendSms([next]);
      await t.deliver();
      expect([submitsTo(mtn, next).length, submitsTo(orange, next).length]).toEqual([1, 0]);
    } finally {
      const binds = agg.binds;
      await agg.start(port);
      await until(() => agg.binds, (count) => count > binds, 30_000);
    }
  });

  it('refuses a number no route takes before any debit: 400 for an OTP, rejected in a bulk send', async () => {
    const before = await balance();

    const otp = await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+33612345678'));
    expect(otp.body).toEqual(UNROUTED);
    expect(await balance()).toBe(before);

    const routed = orangeNumber();
    const bulk = await sendSms(['+33612345679', routed]);
    expect(bulk).toEqual(
      expect.objectContaining({ count: 1, amount: 2.5, rejected: [{ to: '+33612345679', reason: 'destination_non_prise_en_charge' }] }),
    );
    expect(await balance()).toBe(before - 2.5);
  });

  it('leaves a number no route takes out of a campaign, counted, before the debit; the others go through their routes', async () => {
    const [routed, unrouted] = [mtnNumber(), '+33612345670'];
    const group = (await t.http().post('/v1/group').set('Authorization', tenant.auth).send({ name: 'Routage' }).expect(201)).body.data.id as string;
    await t.http().post(`/v1/group/${group}/contacts`).set('Authorization', tenant.auth).send({ phones: [routed, unrouted] }).expect(200);
    const created = await t
      .http()
      .post('/v1/campaign')
      .set('Authorization', tenant.auth)
      .send({ name: 'Routage', message: 'Soldes ce week-end', append_opt_out: false, group_ids: [group] })
      .expect(201);
    const before = await balance();

    const launched = await t.http().post(`/v1/campaign/${created.body.data.id}/launch`).set('Authorization', tenant.auth).send({}).expect(200);
    expect(launched.body.data).toMatchObject({
      amount: 2.5,
      counts: { recipients: 1, excluded: { desinscrit: 0, numero_invalide: 0, doublon: 0, destination_non_prise_en_charge: 1 } },
    });
    expect(await balance()).toBe(before - 2.5);
    await until(
      async () => {
        await t.deliver();
        return submitsTo(mtn, routed).length;
      },
      (count) => count === 1,
    );
  });

  it('matches each receipt on the connector that sent it, when two connectors hand out the same message ids', async () => {
    await t.deliver();
    orange.nextMessageId = 900_000;
    mtn.nextMessageId = 900_000;
    const [toOrange, toMtn] = [orangeNumber(), mtnNumber()];
    const sent = await sendSms([toOrange, toMtn]);
    await t.deliver();
    expect(submitsTo(orange, toOrange)[0]!.messageId).toBe('900000');
    expect(submitsTo(mtn, toMtn)[0]!.messageId).toBe('900000');

    expect(await orange.sendReceipt('900000', 'DELIVRD')).toBe(smpp.ESME_ROK);
    expect(await mtn.sendReceipt('900000', 'UNDELIV')).toBe(smpp.ESME_ROK);

    const byTo = new Map(sent.messages.map((message) => [message.to, message.uniq_id]));
    expect(await messageOf(byTo.get(toOrange)!)).toEqual(expect.objectContaining({ status: 'delivered', provider: 'orange', provider_status: 'DELIVRD' }));
    expect(await messageOf(byTo.get(toMtn)!)).toEqual(expect.objectContaining({ status: 'undelivered', provider: 'mtn', provider_status: 'UNDELIV' }));
  });

  it('takes inbound messages on every connector and records which one', async () => {
    await t.admin.addLocalNumber(tenant.accountId, '+2250102030499');

    expect(await mtn.sendMo('+2250505050599', '+2250102030499', 'Bonjour par MTN')).toBe(smpp.ESME_ROK);
    expect(await agg.sendMo('+2250707070799', '+2250102030499', 'Bonjour par agg')).toBe(smpp.ESME_ROK);

    const stored = await t.database.run((sql) =>
      sql.all<{ message: string; provider: string }>('SELECT message, provider FROM message_in WHERE account_id = ? ORDER BY provider', [tenant.accountId]),
    );
    expect(stored).toEqual([
      { message: 'Bonjour par agg', provider: 'agg' },
      { message: 'Bonjour par MTN', provider: 'mtn' },
    ]);
  });

  it('fails a message its connector refuses for good, without offering it to another target', async () => {
    const to = orangeNumber();
    orange.answerNext(smpp.ESME_RINVDSTADR);

    const sent = await sendSms([to]);
    await t.deliver();

    expect(await messageOf(sent.messages[0]!.uniq_id)).toEqual(expect.objectContaining({ status: 'failed', provider: 'orange', provider_status: 'REJECTD' }));
    expect(submitsTo(agg, to)).toEqual([]);
  });
});
