import { setTimeout as sleep } from 'node:timers/promises';
import { FakeSmsc } from './support/fake-smsc.js';
import { checkedFetch } from './support/openapi-answers.js';
import { freePort, productionEnv, runCli, startCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase as query } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { until } from './support/until.js';

const SECRET = 'sms-send-crash-secret-0123456789abcdef012';
const GROUP_SIZE = 10_000;
const PER_CALL = 1_000;
const PRICE = 2.5;
const START_BALANCE = 1_000_000;
const KILLS = 5;

type Outcome = 'all' | 'none';
interface Round {
  lot: string;
  delayMs: number;
  answered: number | null;
  outcome: Outcome;
}

const phoneOf = (n: number) => `+22505${10_000_000 + n}`;
const phones = Array.from({ length: GROUP_SIZE }, (_, n) => phoneOf(n));

/**
 * `kill -9` of the server while it accepts a send to a group of 10,000 contacts,
 * at delays that home in on the moment its transaction commits. Whichever side
 * of the commit the kill lands, after a restart the lot is there in full and
 * each message reaches the SMSC once, or nothing of it is there and nothing was
 * debited. The SMSC is down while the kill happens, so what is tested is the
 * acceptance, not a hand-over cut short.
 */
describe('a 10,000-recipient send across a server killed with SIGKILL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let base: string;
  let smsc: FakeSmsc;
  let server: ServerProcess | undefined;
  let account: { account_id: string; api_key: string };
  let groupId: string;
  /** How long an unkilled send to the group takes to be answered. */
  let acceptMs = 0;
  let lotsAccepted = 0;

  const serve = async () => {
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
  };
  const post = async (path: string, body: object) => {
    const response = await checkedFetch(`${base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    return { status: response.status, body: (await response.json()) as { data: Record<string, any> } };
  };
  const sendToGroup = (lot: string) => post('/v1/sms/send', { group_ids: [groupId], message: `${lot}: bonjour ##NAME##`, lot });
  const count = async (sql: string, params: unknown[]) => Number((await query(env, sql, params))[0]!.n);
  const storedFor = async (lot: string) => ({
    messages: await count('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND lot = ?', [account.account_id, lot]),
    lots: await count('SELECT COUNT(*) AS n FROM message_lot WHERE account_id = ? AND lot = ?', [account.account_id, lot]),
    debits: await count("SELECT COUNT(*) AS n FROM ledger_entry WHERE account_id = ? AND kind = 'debit' AND reference = ?", [account.account_id, lot]),
  });
  /** How many submits each contact of the group got for this lot. */
  const submitsPerPhone = (lot: string) => {
    const counts = new Map<string, number>();
    for (const submit of smsc.submits) {
      if (submit.text.startsWith(`${lot}: `)) counts.set(submit.destinationAddr, (counts.get(submit.destinationAddr) ?? 0) + 1);
    }
    return phones.map((phone) => counts.get(phone.slice(1)) ?? 0);
  };
  /** Waits until every message of the lot is handed over, then checks each contact got its own text once. */
  const expectHandedOverOnce = async (lot: string) => {
    await until(
      () => count("SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND lot = ? AND status = 'sent'", [account.account_id, lot]),
      (sent) => sent === GROUP_SIZE,
      120_000,
      100,
    );
    const perPhone = submitsPerPhone(lot);
    expect(perPhone.filter((submits) => submits !== 1)).toEqual([]);
    const texts = new Set(smsc.submits.filter((submit) => submit.text.startsWith(`${lot}: `)).map((submit) => submit.text));
    expect(texts.size).toBe(GROUP_SIZE);
    expect(await count('SELECT COUNT(*) AS n FROM outbox WHERE account_id = ?', [account.account_id])).toBe(0);
  };
  /** The audit runs while the test waits for the hand-over, which does not touch the balance. */
  const expectLedgerAgrees = async () => {
    const balance = START_BALANCE - lotsAccepted * GROUP_SIZE * PRICE;
    expect((await startCli(env, 'account:audit', '--account', account.account_id)).json).toEqual({ balance, ledger_sum: balance, consistent: true });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    smsc = new FakeSmsc();
    await smsc.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // entries claimed by a killed process are offered again after this lease
    env = productionEnv(database.env, SECRET, { PORT: String(port), SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, OUTBOX_LEASE_SECONDS: '5' });
    account = runCli(env, 'account:create', '--name', 'Crash Bulk', '--balance', String(START_BALANCE)).json as typeof account;
    await serve();

    const group = await post('/v1/group', { name: 'Tous les clients' });
    groupId = group.body.data.id;
    for (let start = 0; start < GROUP_SIZE; start += PER_CALL) {
      const contacts = phones.slice(start, start + PER_CALL).map((phone, i) => ({ phone, name: `Client ${start + i}` }));
      const added = await post('/v1/contact/bulk', { contacts, group_ids: [groupId] });
      expect(added.body.data).toMatchObject({ created: PER_CALL, errors: [] });
    }
    await until(() => smsc.binds, (binds) => binds > 0);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await smsc?.stop();
    await database?.drop();
  }, 60_000);

  it('accepts a send to the group when nothing goes wrong, and hands each message over once', async () => {
    const started = performance.now();
    const answer = await sendToGroup('calme');
    acceptMs = performance.now() - started;

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ lot: 'calme', count: GROUP_SIZE, amount: GROUP_SIZE * PRICE, rejected: [] });
    expect(answer.body.data.messages).toBeUndefined();
    lotsAccepted++;
    await Promise.all([expectLedgerAgrees(), expectHandedOverOnce('calme')]);
  }, 180_000);

  it(`keeps all of a lot or none of it, whatever instant of the acceptance ${KILLS} kills land on`, async () => {
    const smscPort = smsc.port;
    const rounds: Round[] = [];
    // bisection over the delay between the request and the kill: an accepted lot moves the next kill earlier, a lost one later
    let [early, late] = [0, 3 * acceptMs];
    for (let k = 1; k <= KILLS; k++) {
      const lot = `coupure-${k}`;
      const delayMs = Math.round((early + late) / 2);
      await smsc.stop();
      const answer = sendToGroup(lot).then(
        (response) => response.status,
        () => null,
      );
      await sleep(delayMs);
      await server?.stop('SIGKILL');
      const answered = await answer;
      await smsc.start(smscPort);
      await serve();

      const stored = await storedFor(lot);
      const outcome: Outcome = stored.messages === 0 ? 'none' : 'all';
      rounds.push({ lot, delayMs, answered, outcome });
      if (outcome === 'all') {
        expect(stored).toEqual({ messages: GROUP_SIZE, lots: 1, debits: 1 });
        lotsAccepted++;
        late = delayMs;
      } else {
        expect({ stored, answered }).toEqual({ stored: { messages: 0, lots: 0, debits: 0 }, answered: null });
        early = delayMs;
      }
      if (outcome === 'all') await Promise.all([expectLedgerAgrees(), expectHandedOverOnce(lot)]);
      else {
        await expectLedgerAgrees();
        expect(submitsPerPhone(lot).some((submits) => submits > 0)).toBe(false);
      }
    }

    const summary = rounds.map((round) => `${round.delayMs} ms → ${round.outcome}${round.answered ? ` (answered ${round.answered})` : ''}`).join(', ');
    console.log(`sms-send crash (${env.DB_TYPE}): an unkilled send to ${GROUP_SIZE} answered in ${Math.round(acceptMs)} ms; kills: ${summary}`);
    // a lot lost to a kill well after the request reached the server: the kill landed inside the accepting transaction
    expect(rounds.some((round) => round.outcome === 'none' && round.delayMs >= acceptMs / 4)).toBe(true);
    expect(await count('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ?', [account.account_id])).toBe(lotsAccepted * GROUP_SIZE);
  }, 600_000);
});
