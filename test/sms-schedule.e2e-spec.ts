import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import { FakeSmsc } from './support/fake-smsc.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { checkedFetch } from './support/openapi-answers.js';
import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';

const SECRET = 'sms-schedule-secret-0123456789abcdef01234';
const PRICE = 2.5;
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const PARIS = 'Europe/Paris';
/** Between the cancels of successive lots, about the time the dispatcher takes to hand a lot over. */
const CANCEL_SPACING_MS = 25;

const phone = (n: number) => `+2250711${String(n).padStart(6, '0')}`;
const phonesFrom = (first: number, count: number) => Array.from({ length: count }, (_, n) => phone(first + n));
/** How many submits each number got. */
const submitsPer = (smsc: FakeSmsc, numbers: string[]) => numbers.map((to) => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1)).length);

/** Scheduled messages wait in the outbox for their time: across a `kill -9`, against cancels, in a delivery window around DST changes. */
describe('scheduled SMS', () => {
  // the messages that wait across a server killed with SIGKILL are scheduled first: the tests in one application run during their minute
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let serverSmsc: FakeSmsc;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  const due = phonesFrom(0, 20);
  const withdrawn = phonesFrom(100, 5);
  let dueAt: Date;
  let statusesAfterRestart: Record<string, number>;
  let restartedAt: number;
  let submitsAfterRestart: number;

  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };
  const post = async (path: string, body?: object) => {
    const response = await checkedFetch(`${base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.api_key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, body: (await response.json()) as { data: Record<string, any> } };
  };
  const statuses = async () => {
    const rows = await query(env, 'SELECT status, COUNT(*) AS n FROM message_out WHERE account_id = ? GROUP BY status', [account.account_id]);
    return Object.fromEntries(rows.map((row) => [String(row.status), Number(row.n)]));
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    serverSmsc = new FakeSmsc();
    await serverSmsc.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = productionEnv(database.env, SECRET, { PORT: String(port), SMS_PROVIDER: 'smpp', SMPP_URL: serverSmsc.url, OUTBOX_LEASE_SECONDS: '5' });
    account = runCli(env, 'account:create', '--name', 'Crash Schedule', '--balance', '1000').json as typeof account;
    await serve();
    await until(() => serverSmsc.binds, (binds) => binds > 0);

    // the shortest wait that schedules: more than a minute ahead
    dueAt = new Date(Date.now() + 62_000);
    const scheduled = await post('/v1/sms/send', { to: due, message: 'Votre rendez-vous est confirmé', lot: 'rappels', send_at: dueAt.toISOString() });
    expect(scheduled.body.data).toMatchObject({ scheduled: true, count: due.length });
    expect((await post('/v1/sms/send', { to: withdrawn, message: 'Offre retirée', lot: 'retire', send_at: dueAt.toISOString() })).status).toBe(200);
    expect((await post('/v1/sms/out/retire/cancel')).body.data).toEqual({ cancelled: withdrawn.length, refunded: withdrawn.length * PRICE, balance: 1000 - due.length * PRICE });

    await server?.stop('SIGKILL');
    await serve();
    statusesAfterRestart = await statuses();
    restartedAt = Date.now();
    submitsAfterRestart = serverSmsc.submits.length;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await serverSmsc?.stop();
    await database?.drop();
  });

  describe('in one application under a controlled clock', () => {
    let t: TestApp;
    let smsc: FakeSmsc;

    beforeAll(async () => {
      smsc = new FakeSmsc();
      // the hand-over takes long enough for cancels to arrive while it goes on
      smsc.submitDelayMs = 3;
      await smsc.start();
      t = await startTestApp({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url });
      await until(() => smsc.binds, (binds) => binds > 0);
    });
    afterAll(async () => {
      await t?.close();
      await smsc?.stop();
    });

    const send = (tenant: Tenant, body: object) => t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send(body);
    const cancel = (tenant: Tenant, idOrLot: string) => t.http().post(`/v1/sms/out/${idOrLot}/cancel`).set('Authorization', tenant.auth);
    const messagesOf = (tenant: Tenant) =>
      t.database.run((sql) =>
        sql.all<{ uniq_id: string; recipient: string; status: string; amount: number | string; lot: string }>(
          'SELECT uniq_id, recipient, status, amount, lot FROM message_out WHERE account_id = ?',
          [tenant.accountId],
        ),
      );
    const ledgerOf = (tenant: Tenant) =>
      t.database.run(async (sql) => {
        const account = await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]);
        const sums = await sql.all<{ kind: string; total: number | string }>(
          'SELECT kind, SUM(amount) AS total FROM ledger_entry WHERE account_id = ? GROUP BY kind',
          [tenant.accountId],
        );
        const byKind = Object.fromEntries(sums.map((row) => [row.kind, Number(row.total) / 100]));
        return { balance: Number(account?.balance) / 100, sum: Object.values(byKind).reduce((a, b) => a + b, 0), refunds: byKind.refund ?? 0 };
      });
    const setClock = (at: DateTime) => t.clock.advance((at.toMillis() - t.clock.now().getTime()) / 1000);

    const statusOf = async (uniqId: string) =>
      (await t.database.run((sql) => sql.get<{ status: string }>('SELECT status FROM message_out WHERE uniq_id = ?', [uniqId])))?.status;

    it('leaves messages scheduled for later alone when the connection to the SMSC comes back', async () => {
      const tenant = await createTenant(t);
      const later = (await send(tenant, { to: phone(60_000), message: 'Plus tard', send_at: new Date(t.clock.now().getTime() + 7_200_000).toISOString() }).expect(200)).body.data;
      const port = smsc.port;
      const binds = smsc.binds;

      await smsc.stop();
      await smsc.start(port);
      await until(() => smsc.binds, (count) => count > binds);
      // a message sent now goes out once the provider is ready again, which is when waiting retries are offered at once
      const now = (await send(tenant, { to: phone(60_001), message: 'Tout de suite' }).expect(200)).body.data;
      await until(() => statusOf(now.messages[0].uniq_id), (status) => status === 'sent');
      await t.deliver();

      expect(await statusOf(later.messages[0].uniq_id)).toBe('scheduled');
      expect(submitsPer(smsc, [phone(60_000)])).toEqual([0]);
      t.clock.advance(7_200 + 1);
      await t.deliver();
      expect(await statusOf(later.messages[0].uniq_id)).toBe('sent');
      expect(submitsPer(smsc, [phone(60_000)])).toEqual([1]);
    });

    it('drops the entries of a cancelled lot without holding back what is due after them', async () => {
      const tenant = await createTenant(t, { balance: '5000.00' });
      const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      await send(tenant, { to: phonesFrom(20_000, 1000), message: 'Annulé', lot: 'annule', send_at: sendAt }).expect(200);
      expect((await cancel(tenant, 'annule').expect(200)).body.data).toMatchObject({ cancelled: 1000, refunded: 2500 });
      t.clock.advance(3600 + 1);

      const after = (await send(tenant, { to: phone(60_002), message: 'Après le lot' }).expect(200)).body.data;
      await t.deliver();

      expect(await statusOf(after.messages[0].uniq_id)).toBe('sent');
      expect(await t.database.run((sql) => sql.all('SELECT id FROM outbox WHERE account_id = ?', [tenant.accountId]))).toEqual([]);
      expect(submitsPer(smsc, phonesFrom(20_000, 1000)).some((submits) => submits > 0)).toBe(false);
    });

    it('cancels racing the promotion of 1,000 due messages, lot by lot: each ends cancelled and refunded or handed over once, never both', async () => {
      // lots that straddle the dispatcher's batches of 50: a cancel may find part of its lot promoted
      const LOTS = 25;
      const PER_LOT = 40;
      const tenant = await createTenant(t, { balance: '5000.00' });
      const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      const lot = (i: number) => `vague-${i}`;
      for (let i = 0; i < LOTS; i++) {
        await send(tenant, { to: phonesFrom(10_000 + i * PER_LOT, PER_LOT), message: `Vague ${i}`, lot: lot(i), send_at: sendAt }).expect(200);
      }
      const submitsBefore = smsc.submits.length;

      t.clock.advance(3600 + 1);
      const started = performance.now();
      const drained = t.deliver().then(() => performance.now() - started);
      // the lots are claimed in order and cancelled in the other: the cancels meet the hand-over somewhere between, whatever its speed
      const answers = await Promise.all(
        Array.from({ length: LOTS }, (_, i) => sleep((LOTS - 1 - i) * CANCEL_SPACING_MS).then(() => cancel(tenant, lot(i)))),
      );
      const drainMs = await drained;
      await t.deliver();

      const messages = await messagesOf(tenant);
      const cancelled = messages.filter((message) => message.status === 'cancelled');
      const sent = messages.filter((message) => message.status === 'sent');
      const partial = answers.filter((answer) => answer.status === 200 && answer.body.data.cancelled < PER_LOT).length;
      console.log(
        `cancel racing promotion (${process.env.DB_TYPE}): hand-over of ${LOTS * PER_LOT} took ${Math.round(drainMs)} ms; ${cancelled.length} cancelled, ${sent.length} sent, ${partial} lots cancelled in part`,
      );
      expect(cancelled.length + sent.length).toBe(LOTS * PER_LOT);
      expect(submitsPer(smsc, cancelled.map((message) => message.recipient)).filter((submits) => submits !== 0)).toEqual([]);
      expect(submitsPer(smsc, sent.map((message) => message.recipient)).filter((submits) => submits !== 1)).toEqual([]);
      expect(smsc.submits.length - submitsBefore).toBe(sent.length);
      for (const [i, answer] of answers.entries()) {
        const inLot = cancelled.filter((message) => message.lot === lot(i)).length;
        if (inLot === 0) expect(answer.body).toEqual({ status: 409, message: 'transition_invalide', errors: ['status: message déjà transmis'] });
        else expect(answer.body.data).toEqual({ cancelled: inLot, refunded: inLot * PRICE, balance: expect.any(Number) });
      }
      expect(cancelled.length).toBeGreaterThan(0);
      expect(sent.length).toBeGreaterThan(0);
      const ledger = await ledgerOf(tenant);
      expect(ledger).toEqual({ balance: 5000 - sent.length * PRICE, sum: 5000 - sent.length * PRICE, refunds: cancelled.length * PRICE });
      expect(await t.database.run((sql) => sql.all('SELECT id FROM outbox WHERE account_id = ?', [tenant.accountId]))).toEqual([]);
    }, 60_000);

    /** The Saturday before the next last Sunday of `month` (3: spring forward, 10: fall back) in Paris, at `hour`:`minute`. */
    const saturdayBeforeChange = (month: 3 | 10, hour: number, minute = 0) => {
      const now = DateTime.fromJSDate(t.clock.now(), { zone: PARIS });
      for (let year = now.year; ; year++) {
        const lastDay = DateTime.fromObject({ year, month }, { zone: PARIS }).endOf('month').startOf('day');
        const sunday = lastDay.minus({ days: lastDay.weekday % 7 });
        const saturday = sunday.minus({ days: 1 }).set({ hour, minute });
        if (saturday > now) return saturday;
      }
    };
    /** `HH:MM` on the Sunday after `saturday`, read as UTC. */
    const sundayUtc = (saturday: DateTime, time: string) => new Date(`${saturday.plus({ days: 1 }).toISODate()}T${time}:00.000Z`);

    /** Sends outside the window and checks the message waits until exactly `opening`, then goes. */
    const expectHeldUntil = async (tenant: Tenant, body: object, opening: Date) => {
      const data = (await send(tenant, body).expect(200)).body.data;
      const uniqId: string = data.messages[0].uniq_id;

      expect(data).toMatchObject({ scheduled: true, messages: [{ status: 'scheduled', send_at: opening.toISOString() }] });
      setClock(DateTime.fromJSDate(opening).minus({ minutes: 1 }));
      await t.deliver();
      expect(await statusOf(uniqId)).toBe('scheduled');
      setClock(DateTime.fromJSDate(opening).plus({ seconds: 1 }));
      await t.deliver();
      expect(await statusOf(uniqId)).toBe('sent');
      const record = (await t.http().get(`/v1/sms/out/${uniqId}`).set('Authorization', tenant.auth).expect(200)).body.data;
      expect(new Date(record.send_at).getTime()).toBeGreaterThanOrEqual(opening.getTime());
    };

    it('holds a send made on the Saturday evening before the spring change until Sunday 08:00 Paris time, 06:00 UTC', async () => {
      const tenant = await createTenant(t);
      const saturday = saturdayBeforeChange(3, 21);
      setClock(saturday);

      await expectHeldUntil(
        tenant,
        { to: phone(50_000), message: 'Bonne semaine', delivery_window: { days: EVERY_DAY, from: '08:00', to: '20:00', timezone: PARIS } },
        sundayUtc(saturday, '06:00'),
      );
    });

    it('opens a window starting at 02:30 on the spring-forward night when the gap ends, 03:00 Paris time', async () => {
      const tenant = await createTenant(t);
      const saturday = saturdayBeforeChange(3, 23);
      setClock(saturday);

      await expectHeldUntil(
        tenant,
        { to: phone(50_001), message: 'Maintenance', delivery_window: { days: EVERY_DAY, from: '02:30', to: '05:00', timezone: PARIS } },
        sundayUtc(saturday, '01:00'),
      );
    });

    it('holds a send made on the Saturday evening before the autumn change until Sunday 08:00 Paris time, 07:00 UTC', async () => {
      const tenant = await createTenant(t);
      const saturday = saturdayBeforeChange(10, 21);
      setClock(saturday);

      await expectHeldUntil(
        tenant,
        { to: phone(50_002), message: 'Bonne semaine', delivery_window: { days: EVERY_DAY, from: '08:00', to: '20:00', timezone: PARIS } },
        sundayUtc(saturday, '07:00'),
      );
    });
  });

  describe('across a server killed with SIGKILL while they wait', () => {
    it('keeps them scheduled across the restart, the cancelled ones cancelled, nothing handed over early', () => {
      expect(statusesAfterRestart).toEqual({ scheduled: due.length, cancelled: withdrawn.length });
      expect(restartedAt).toBeLessThan(dueAt.getTime());
      expect(submitsAfterRestart).toBe(0);
    });

    it('hands each over once, at or after its time, and never the cancelled ones', async () => {
      await until(statuses, (counts) => counts.sent === due.length, 90_000, 250);

      expect(submitsPer(serverSmsc, due)).toEqual(due.map(() => 1));
      expect(submitsPer(serverSmsc, withdrawn)).toEqual(withdrawn.map(() => 0));
      const earliest = Math.min(...serverSmsc.submits.map((submit) => submit.receivedAt));
      expect(earliest).toBeGreaterThanOrEqual(dueAt.getTime());
      expect(await query(env, 'SELECT id FROM outbox')).toEqual([]);
      const balance = 1000 - due.length * PRICE;
      expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance, ledger_sum: balance, consistent: true });
    }, 100_000);
  });
});
