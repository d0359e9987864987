import { setTimeout as sleep } from 'node:timers/promises';
import smpp from 'smpp';
import { FakeSmsc } from './support/fake-smsc.js';
import { callInstance, createAccount } from './support/instance-calls.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';

const SECRET = 'sms-send-chunks-secret-0123456789abcdef01';
const PRICE = 2.5;
const START_BALANCE = 100_000;

interface Account {
  account_id: string;
  api_key: string;
}

const phonesOf = (lot: number, count: number) => Array.from({ length: count }, (_, n) => `+2250713${String(lot * 10_000 + n).padStart(6, '0')}`);

/** What the SMSC took for each of `phones` (taken: accepted with a message id; a refused or unanswered submit is not). */
const takenBy = (smsc: FakeSmsc, phones: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const submit of smsc.submits) counts.set(submit.destinationAddr, (counts.get(submit.destinationAddr) ?? 0) + 1);
  return phones.map((phone) => counts.get(phone.slice(1)) ?? 0);
};

const statusesOf = async (env: Record<string, string>, account: Account, lot: string) =>
  (await query(env, 'SELECT recipient, status, provider_id, dlr_number_retry FROM message_out WHERE account_id = ? AND lot = ? ORDER BY recipient', [
    account.account_id,
    lot,
  ])) as Array<{ recipient: string; status: string; provider_id: string | null; dlr_number_retry: number | string }>;

const countWith = async (env: Record<string, string>, account: Account, lot: string, status: string) =>
  Number((await query(env, 'SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND lot = ? AND status = ?', [account.account_id, lot, status]))[0]!.n);

const expectLedgerAgrees = (env: Record<string, string>, account: Account, balance: number) =>
  expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance, ledger_sum: balance, consistent: true });

/**
 * The bulk lane keeps one outbox entry per chunk of a lot (up to 100 messages), and settles each message on its own:
 * what became of each is recorded as it is known, so that a crash in the middle of a chunk hands none over twice and
 * skips none, a refused message goes back alone, and a scheduled lot cancelled while other instances hold some of its
 * chunks is, message by message, either cancelled and refunded or handed over.
 */
describe('the bulk lane in chunks, on one instance killed with SIGKILL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let smsc: FakeSmsc;
  let server: ServerProcess | undefined;
  let base: string;
  let account: Account;
  let spent = 0;

  const serve = async () => {
    [server] = await startInstances(env, 1);
    base = (server as ServerProcess & { base: string }).base;
  };
  const send = (lot: string, phones: string[]) =>
    callInstance([base], 0, { method: 'POST', path: '/v1/sms/send', key: account.api_key, body: { to: phones, message: `Lot ${lot}`, lot }, timeoutMs: 60_000 });

  beforeAll(async () => {
    database = await createTestDatabase();
    smsc = new FakeSmsc();
    await smsc.start();
    // a chunk held by a killed process is offered again after this lease
    env = productionEnv(database.env, SECRET, { SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, OUTBOX_LEASE_SECONDS: '5' });
    account = createAccount(env, 'Chunked Lots', String(START_BALANCE));
    await serve();
    await until(() => smsc.binds, (binds) => binds > 0);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await smsc?.stop();
    await database?.drop();
  }, 60_000);

  it('hands every message of a lot over once when the server is killed in the middle of a chunk', async () => {
    const phones = phonesOf(1, 250);
    smsc.stopAnsweringAfter(130);
    const answer = await send('coupure', phones);
    expect(answer.body.data).toMatchObject({ lot: 'coupure', count: 250, rejected: [] });
    spent += 250 * PRICE;

    // the first chunk handed over, and 30 messages of the second recorded while the rest of it is in hand, with the
    // third claimed beside it (two batches in hand)
    await until(() => countWith(env, account, 'coupure', 'sent'), (sent) => sent === 130, 60_000);
    const entries = await query(env, 'SELECT messages, claimed_by FROM outbox WHERE account_id = ? ORDER BY id', [account.account_id]);
    expect(entries.map((entry) => ({ messages: Number(entry.messages), held: entry.claimed_by !== null }))).toEqual([
      { messages: 70, held: true },
      { messages: 50, held: true },
    ]);
    await server?.stop('SIGKILL');
    smsc.answerAgain();
    await serve();

    await until(() => countWith(env, account, 'coupure', 'sent'), (sent) => sent === 250, 90_000, 200);
    expect(takenBy(smsc, phones)).toEqual(phones.map(() => 1));
    const taken = new Map(smsc.submits.map((submit) => [submit.destinationAddr, submit.messageId]));
    const messages = await statusesOf(env, account, 'coupure');
    expect(messages.map((message) => message.provider_id)).toEqual(messages.map((message) => taken.get(message.recipient.slice(1))));
    expect(await query(env, 'SELECT id FROM outbox WHERE account_id = ?', [account.account_id])).toEqual([]);
    expectLedgerAgrees(env, account, START_BALANCE - spent);
  }, 240_000);

  it.each([
    ['throttled (ESME_RTHROTTLED), each submitted again after a pause', 'frein', smpp.ESME_RTHROTTLED],
    ['refused for now (ESME_RSYSERR), each back in its chunk for a later attempt', 'panne', smpp.ESME_RSYSERR],
  ])('loses and doubles no message of a 1,000-recipient lot when every 10th submit is %s', async (_, lot, status) => {
    const phones = phonesOf(lot === 'frein' ? 2 : 3, 1000);
    const receivedBefore = smsc.received;
    const takenBefore = smsc.submits.length;
    smsc.answerEvery(10, status);
    try {
      expect((await send(lot, phones)).body.data).toMatchObject({ lot, count: 1000, rejected: [] });
      spent += 1000 * PRICE;
      await until(() => countWith(env, account, lot, 'sent'), (sent) => sent === 1000, 120_000, 200);
    } finally {
      smsc.answerEvery(1, smpp.ESME_ROK);
    }

    expect(takenBy(smsc, phones)).toEqual(phones.map(() => 1));
    const refused = smsc.received - receivedBefore - (smsc.submits.length - takenBefore);
    expect(refused).toBeGreaterThanOrEqual(100);
    const messages = await statusesOf(env, account, lot);
    expect(messages.reduce((sum, message) => sum + Number(message.dlr_number_retry), 0)).toBe(refused);
    expect(await query(env, 'SELECT id FROM outbox WHERE account_id = ?', [account.account_id])).toEqual([]);
    expectLedgerAgrees(env, account, START_BALANCE - spent);
  }, 240_000);
});

describe('the bulk lane in chunks, a scheduled lot cancelled while two instances hold some of its chunks', () => {
  const LOT = 'annule-en-route';
  const SIZE = 500;
  let database: TestDatabase;
  let env: Record<string, string>;
  let smsc: FakeSmsc;
  const servers: Array<ServerProcess & { base: string }> = [];
  let account: Account;
  let sendAt: Date;
  const phones = phonesOf(4, SIZE);

  beforeAll(async () => {
    database = await createTestDatabase();
    smsc = new FakeSmsc();
    await smsc.start();
    env = productionEnv(database.env, SECRET, { SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url });
    account = createAccount(env, 'Cancelled Lot', String(START_BALANCE));
    servers.push(...(await startInstances(env, 2)));
    await until(() => smsc.binds, (binds) => binds >= 2);
    sendAt = new Date(Date.now() + 62_000);
    const answer = await callInstance(
      servers.map((server) => server.base),
      0,
      { method: 'POST', path: '/v1/sms/send', key: account.api_key, body: { to: phones, message: 'Rappel', lot: LOT, send_at: sendAt.toISOString() } },
    );
    expect(answer.body.data).toMatchObject({ lot: LOT, count: SIZE, scheduled: true });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await smsc?.stop();
    await database?.drop();
  }, 60_000);

  it('either cancels and refunds each message or hands it over once, never both', async () => {
    // the instances' submits stay unanswered: each holds the chunk it claimed when the lot fell due, and claims no other
    smsc.stopAnsweringAfter(0);
    await sleep(Math.max(0, sendAt.getTime() - Date.now()));
    const holders = await until(
      async () => (await query(env, 'SELECT claimed_by FROM outbox WHERE account_id = ? AND claimed_by IS NOT NULL', [account.account_id])).map((row) => row.claimed_by),
      (held) => new Set(held).size === 2,
      30_000,
      20,
    );
    const waiting = await query(env, 'SELECT COUNT(*) AS n FROM outbox WHERE account_id = ? AND claimed_by IS NULL', [account.account_id]);
    const cancel = await callInstance(
      servers.map((server) => server.base),
      1,
      { method: 'POST', path: `/v1/sms/out/${LOT}/cancel`, key: account.api_key },
    );
    smsc.answerAgain();

    await until(
      async () => (await statusesOf(env, account, LOT)).filter((message) => message.status === 'pending' || message.status === 'scheduled').length,
      (left) => left === 0,
      120_000,
      250,
    );
    const messages = await statusesOf(env, account, LOT);
    const cancelled = messages.filter((message) => message.status === 'cancelled').map((message) => message.recipient);
    const sent = messages.filter((message) => message.status === 'sent').map((message) => message.recipient);
    console.log(`chunked lot cancelled while held by ${holders.length} chunks' holders: ${cancelled.length} cancelled, ${sent.length} sent`);

    expect(Number(waiting[0]!.n)).toBeGreaterThan(0);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThanOrEqual(200);
    expect(cancelled.length + sent.length).toBe(SIZE);
    expect(cancel.body).toEqual({ status: 200, message: 'succès', data: { cancelled: cancelled.length, refunded: cancelled.length * PRICE, balance: START_BALANCE - sent.length * PRICE } });
    expect(takenBy(smsc, sent)).toEqual(sent.map(() => 1));
    expect(takenBy(smsc, cancelled).filter((taken) => taken !== 0)).toEqual([]);
    expect(Math.min(...smsc.submits.map((submit) => submit.receivedAt))).toBeGreaterThanOrEqual(sendAt.getTime());
    expect(await query(env, 'SELECT id FROM outbox')).toEqual([]);
    expectLedgerAgrees(env, account, START_BALANCE - sent.length * PRICE);
  }, 240_000);
});
