import { FakeSmsc } from '../support/fake-smsc.js';
import { callInstance, createAccount as newAccount } from '../support/instance-calls.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { until } from '../support/until.js';

const SECRET = 'sms-send-two-instances-secret-0123456789';
const SENDS = 20;
const RECIPIENTS = 50;
const PER_SEND = RECIPIENTS * 2.5;
const COVERED = 7;
const BALANCE = COVERED * PER_SEND + 60;

interface Account {
  account_id: string;
  api_key: string;
}

const recipient = (send: number, n: number) => `+2250709${String(send * 1000 + n).padStart(6, '0')}`;
const recipientsOf = (send: number) => Array.from({ length: RECIPIENTS }, (_, n) => recipient(send, n));

/** Bulk sends split over two server processes on one MariaDB: one balance, one Idempotency-Key, one hand-over each. */
describe('POST /v1/sms/send on two instances sharing one MariaDB', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let smsc: FakeSmsc;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];

  const send = (instance: number, account: Account, body: object, headers: Record<string, string> = {}) =>
    callInstance(bases, instance, { method: 'POST', path: '/v1/sms/send', key: account.api_key, body, headers });
  const createAccount = (name: string, balance: string): Account => newAccount(env, name, balance);
  const count = async (sql: string, params: unknown[]) => Number((await query(env, sql, params))[0]!.n);
  const storedFor = async (account: Account, lot: string) => ({
    messages: await count('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND lot = ?', [account.account_id, lot]),
    lots: await count('SELECT COUNT(*) AS n FROM message_lot WHERE account_id = ? AND lot = ?', [account.account_id, lot]),
    debits: await count("SELECT COUNT(*) AS n FROM ledger_entry WHERE account_id = ? AND kind = 'debit' AND reference = ?", [account.account_id, lot]),
  });
  const submitsTo = (numbers: string[]) => numbers.map((to) => smsc.submits.filter((submit) => submit.destinationAddr === to.slice(1)).length);

  beforeAll(async () => {
    database = await createTestDatabase();
    smsc = new FakeSmsc();
    // slow enough that both instances hold batches at once
    smsc.submitDelayMs = 2;
    await smsc.start();
    env = productionEnv(database.env, SECRET, { SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url });
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

  it(`accepts exactly the ${COVERED} of ${SENDS} simultaneous sends the balance covers, stores nothing of the others, and hands each message over once`, async () => {
    const account = createAccount('Bulk Race', BALANCE.toFixed(2));
    const lot = (i: number) => `course-${i}`;

    const answers = await Promise.all(Array.from({ length: SENDS }, (_, i) => send(i, account, { to: recipientsOf(i), message: 'Soldes', lot: lot(i) })));

    const accepted = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    const refused = answers.flatMap((answer, i) => (answer.status === 402 ? [i] : []));
    expect([accepted.length, refused.length]).toEqual([COVERED, SENDS - COVERED]);
    const left = BALANCE - COVERED * PER_SEND;
    for (const i of refused) {
      expect(answers[i]!.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: PER_SEND, balance: left } });
      expect(await storedFor(account, lot(i))).toEqual({ messages: 0, lots: 0, debits: 0 });
    }
    for (const i of accepted) expect(await storedFor(account, lot(i))).toEqual({ messages: RECIPIENTS, lots: 1, debits: 1 });
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance: left, ledger_sum: left, consistent: true });

    const handedOver = accepted.flatMap(recipientsOf);
    await until(
      () => count("SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND status = 'sent'", [account.account_id]),
      (sent) => sent === handedOver.length,
      60_000,
      250,
    );
    expect(submitsTo(handedOver)).toEqual(handedOver.map(() => 1));
    expect(submitsTo(refused.flatMap(recipientsOf)).every((submits) => submits === 0)).toBe(true);
    expect(await count('SELECT COUNT(*) AS n FROM outbox WHERE account_id = ?', [account.account_id])).toBe(0);
  }, 90_000);

  it('sends once for one Idempotency-Key sent 10 times at once to both instances', async () => {
    const account = createAccount('Key Race', '1000');
    const body = { to: recipientsOf(100), message: 'Votre facture est disponible' };
    const headers = { 'Idempotency-Key': 'facture-avril' };

    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i, account, body, headers)));
    const replay = await send(1, account, body, headers);

    const sent = answers.filter((answer) => answer.status === 200);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const answer of [...sent, replay]) expect(answer.body).toEqual(sent[0]!.body);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.body).toEqual({ status: 409, message: 'requete_en_cours', errors: ['Idempotency-Key: une requête avec cette clé est en cours'] });
    }
    expect(await count('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ?', [account.account_id])).toBe(RECIPIENTS);
    expect(await storedFor(account, sent[0]!.body.data.lot)).toEqual({ messages: RECIPIENTS, lots: 1, debits: 1 });
    const left = 1000 - PER_SEND;
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({ balance: left, ledger_sum: left, consistent: true });
  }, 60_000);
});
