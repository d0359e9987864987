import { setTimeout as sleep } from 'node:timers/promises';
import { FakeSmsc } from '../support/fake-smsc.js';
import { callInstance } from '../support/instance-calls.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';

const SECRET = 'sms-schedule-two-instances-secret-012345';
const PER_LOT = 500;
const KEPT_LOTS = ['lundi-a', 'lundi-b', 'lundi-c'];
const RACED_LOT = 'lundi-annule';
const PRICE = 2.5;
const START_BALANCE = 10_000;

const phonesOf = (lot: number) => Array.from({ length: PER_LOT }, (_, n) => `+2250712${String(lot * 1000 + n).padStart(6, '0')}`);

/** Scheduled lots due at one instant, claimed by two server processes on one MariaDB, one lot cancelled while they promote it. */
describe('scheduled SMS on two instances sharing one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let smsc: FakeSmsc;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];
  let account: { account_id: string; api_key: string };
  let sendAt: Date;

  const post = (instance: number, path: string, body?: object) => callInstance(bases, instance, { method: 'POST', path, key: account.api_key, body });
  const messagesOf = async (lot: string) =>
    (await query(env, 'SELECT recipient, status FROM message_out WHERE account_id = ? AND lot = ?', [account.account_id, lot])) as Array<{
      recipient: string;
      status: string;
    }>;
  const submitsTo = (phones: string[]) => phones.map((to) => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1)).length);

  beforeAll(async () => {
    database = await createTestDatabase();
    smsc = new FakeSmsc();
    // slow enough that both instances hold batches at once
    smsc.submitDelayMs = 2;
    await smsc.start();
    env = productionEnv(database.env, SECRET, { SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url });
    account = runCli(env, 'account:create', '--name', 'Two Schedulers', '--balance', String(START_BALANCE)).json as typeof account;
    for (const instance of await startInstances(env, 2)) {
      servers.push(instance);
      bases.push(instance.base);
    }
    await until(() => smsc.binds, (binds) => binds >= 2);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await smsc?.stop();
    await database?.drop();
  }, 60_000);

  it('hands each scheduled message over once, at or after its time; a lot cancelled while it is being promoted is refunded for what it cancelled, never sent as well', async () => {
    sendAt = new Date(Date.now() + 62_000);
    for (const [i, lot] of [...KEPT_LOTS, RACED_LOT].entries()) {
      const answer = await post(i, '/v1/sms/send', { to: phonesOf(i), message: `Rappel ${lot}`, lot, send_at: sendAt.toISOString() });
      expect(answer.body.data).toMatchObject({ lot, count: PER_LOT, scheduled: true });
    }

    await sleep(sendAt.getTime() - Date.now());
    // as soon as the instances have begun promoting this lot
    await until(
      async () => (await messagesOf(RACED_LOT)).filter((message) => message.status !== 'scheduled').length,
      (promoted) => promoted > 0,
      30_000,
      10,
    );
    const cancel = await post(1, `/v1/sms/out/${RACED_LOT}/cancel`);

    const kept = KEPT_LOTS.flatMap((_, i) => phonesOf(i));
    await until(
      async () => (await query(env, "SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND status IN ('scheduled', 'pending')", [account.account_id]))[0]!.n,
      (left) => Number(left) === 0,
      60_000,
      250,
    );
    const raced = await messagesOf(RACED_LOT);
    const cancelled = raced.filter((message) => message.status === 'cancelled').map((message) => message.recipient);
    const sent = raced.filter((message) => message.status === 'sent').map((message) => message.recipient);
    console.log(`two schedulers: lot cancelled while promoted: ${cancelled.length} cancelled, ${sent.length} sent (answer ${cancel.status})`);

    expect(cancelled.length + sent.length).toBe(PER_LOT);
    if (cancelled.length === 0) expect(cancel.body).toEqual({ status: 409, message: 'transition_invalide', errors: ['status: message déjà transmis'] });
    else expect(cancel.body.data).toEqual({ cancelled: cancelled.length, refunded: cancelled.length * PRICE, balance: expect.any(Number) });
    expect(submitsTo(kept)).toEqual(kept.map(() => 1));
    expect(submitsTo(sent)).toEqual(sent.map(() => 1));
    expect(submitsTo(cancelled).filter((submits) => submits !== 0)).toEqual([]);
    expect(Math.min(...smsc.submits.map((submit) => submit.receivedAt))).toBeGreaterThanOrEqual(sendAt.getTime());
    expect(await query(env, 'SELECT id FROM outbox')).toEqual([]);
    const balance = START_BALANCE - (kept.length + sent.length) * PRICE;
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance, ledger_sum: balance, consistent: true });
  }, 150_000);
});
