import type { Response } from 'supertest';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SENDS = 20;
const RECIPIENTS = 50;
const PRICE = 2.5;
const PER_SEND = RECIPIENTS * PRICE;
const COVERED = 7;
/** Seven sends and 60 more: not enough for an eighth. */
const BALANCE = COVERED * PER_SEND + 60;

/** The `n`-th recipient of send `send`: every send has numbers of its own. */
const recipient = (send: number, n: number) => `+2250708${String(send * 1000 + n).padStart(6, '0')}`;
const recipientsOf = (send: number) => Array.from({ length: RECIPIENTS }, (_, n) => recipient(send, n));
const countBy = (answers: Response[]) =>
  answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** Bulk sends racing for one balance, and one Idempotency-Key sent many times at once. */
describe('POST /v1/sms/send under concurrency', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (tenant: Tenant, body: object, headers: Record<string, string> = {}) =>
    t.http().post('/v1/sms/send').set('Authorization', tenant.auth).set(headers).send(body);
  const count = (query: string, params: unknown[]) =>
    t.database.run(async (sql) => Number((await sql.get<{ n: number | string }>(query, params as never[]))?.n ?? 0));
  /** Rows of every kind a send writes, for one lot of the tenant. */
  const storedFor = async (tenant: Tenant, lot: string) => ({
    messages: await count('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND lot = ?', [tenant.accountId, lot]),
    // the messages its outbox entries hold (the bulk lane's entry is a chunk of up to 100, named by its first message)
    outbox: await count(
      'SELECT COALESCE(SUM(messages), 0) AS n FROM outbox WHERE record_id IN (SELECT uniq_id FROM message_out WHERE account_id = ? AND lot = ?)',
      [tenant.accountId, lot],
    ),
    lots: await count('SELECT COUNT(*) AS n FROM message_lot WHERE account_id = ? AND lot = ?', [tenant.accountId, lot]),
    debits: await count("SELECT COUNT(*) AS n FROM ledger_entry WHERE account_id = ? AND kind = 'debit' AND reference = ?", [tenant.accountId, lot]),
  });
  const moneyOf = (tenant: Tenant) =>
    t.database.run(async (sql) => {
      const account = await sql.get<{ balance: number | string }>('SELECT balance FROM account WHERE id = ?', [tenant.accountId]);
      const ledger = await sql.get<{ total: number | string }>('SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?', [tenant.accountId]);
      return { balance: Number(account?.balance) / 100, ledger: Number(ledger?.total) / 100 };
    });
  /** Reads the balance over and over until `stop` resolves; returns the lowest seen. */
  const lowestBalanceDuring = async (tenant: Tenant, stop: Promise<unknown>) => {
    let done = false;
    void stop.finally(() => (done = true));
    let lowest = Number.POSITIVE_INFINITY;
    while (!done) lowest = Math.min(lowest, (await moneyOf(tenant)).balance);
    return Math.min(lowest, (await moneyOf(tenant)).balance);
  };

  it(`accepts exactly the ${COVERED} of ${SENDS} simultaneous ${RECIPIENTS}-recipient sends the balance covers; the others store nothing`, async () => {
    const tenant = await createTenant(t, { balance: BALANCE.toFixed(2) });
    const lot = (i: number) => `course-${i}`;

    await t.pauseDelivery();
    const all = Promise.all(Array.from({ length: SENDS }, (_, i) => send(tenant, { to: recipientsOf(i), message: 'Soldes ce week-end', lot: lot(i) })));
    const [answers, lowest] = await Promise.all([all, lowestBalanceDuring(tenant, all)]);

    expect(countBy(answers)).toEqual({ 200: COVERED, 402: SENDS - COVERED });
    const left = BALANCE - COVERED * PER_SEND;
    for (const refused of answers.filter((answer) => answer.status === 402)) {
      expect(refused.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: PER_SEND, balance: left } });
    }
    const accepted = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    for (const i of accepted) {
      expect(answers[i]!.body.data).toMatchObject({ lot: lot(i), count: RECIPIENTS, amount: PER_SEND, rejected: [] });
      expect(await storedFor(tenant, lot(i))).toEqual({ messages: RECIPIENTS, outbox: RECIPIENTS, lots: 1, debits: 1 });
    }
    for (const i of answers.flatMap((answer, i) => (answer.status === 402 ? [i] : []))) {
      expect(await storedFor(tenant, lot(i))).toEqual({ messages: 0, outbox: 0, lots: 0, debits: 0 });
    }
    expect(await count('SELECT COALESCE(SUM(messages), 0) AS n FROM outbox WHERE account_id = ?', [tenant.accountId])).toBe(COVERED * RECIPIENTS);
    expect(await moneyOf(tenant)).toEqual({ balance: left, ledger: left });
    expect(lowest).toBeGreaterThanOrEqual(0);

    t.resumeDelivery();
    await t.deliver();
    expect(await count("SELECT COUNT(*) AS n FROM message_out WHERE account_id = ? AND status = 'sent'", [tenant.accountId])).toBe(COVERED * RECIPIENTS);
    expect(await moneyOf(tenant)).toEqual({ balance: left, ledger: left });
  }, 60_000);

  it('sends once for one Idempotency-Key sent 10 times at once: the others wait for it or replay it', async () => {
    const tenant = await createTenant(t);
    const body = { to: recipientsOf(100), message: 'Votre facture est disponible' };
    const headers = { 'Idempotency-Key': 'facture-mars' };

    const answers = await Promise.all(Array.from({ length: 10 }, () => send(tenant, body, headers)));
    const replay = await send(tenant, body, headers);

    const sent = answers.filter((answer) => answer.status === 200);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const answer of [...sent, replay]) expect(answer.body).toEqual(sent[0]!.body);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.body).toEqual({ status: 409, message: 'requete_en_cours', errors: ['Idempotency-Key: une requête avec cette clé est en cours'] });
    }
    const lot = sent[0]!.body.data.lot as string;
    expect(await count('SELECT COUNT(*) AS n FROM message_lot WHERE account_id = ?', [tenant.accountId])).toBe(1);
    expect(await storedFor(tenant, lot)).toMatchObject({ messages: RECIPIENTS, lots: 1, debits: 1 });
    expect(await count('SELECT COUNT(*) AS n FROM message_out WHERE account_id = ?', [tenant.accountId])).toBe(RECIPIENTS);
    expect(await moneyOf(tenant)).toEqual({ balance: 1000 - PER_SEND, ledger: 1000 - PER_SEND });
  });

  it('keeps two accounts racing at once apart: each accepts what its own balance covers, neither pays for the other', async () => {
    const [first, second] = [await createTenant(t, { balance: PER_SEND.toFixed(2) }), await createTenant(t, { balance: (2 * PER_SEND).toFixed(2) })];

    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(i % 2 === 0 ? first : second, { to: recipientsOf(200 + i), message: 'Rappel', lot: `rappel-${i}` })),
    );

    const statusesOf = (parity: number) => answers.filter((_, i) => i % 2 === parity).map((answer) => answer.status).sort();
    expect(statusesOf(0)).toEqual([200, 402, 402]);
    expect(statusesOf(1)).toEqual([200, 200, 402]);
    expect(await moneyOf(first)).toEqual({ balance: 0, ledger: 0 });
    expect(await moneyOf(second)).toEqual({ balance: 0, ledger: 0 });
  });
});
