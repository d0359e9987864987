import { isOverdraft } from '../src/billing/ledger.repository.js';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TO = '+2250707070707';
const recipient = (i: number) => `+22507070701${String(i).padStart(2, '0')}`;

describe('POST /v1/otp/send and /v1/otp/verify under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const send = (tenant: Tenant, body: object) => t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(body);
  const verify = (tenant: Tenant, body: object) => t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send(body);
  const countBy = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

  it('gives exactly one 200 to 50 simultaneous verifications of one right code', async () => {
    const tenant = await createTenant(t);
    const sent = await send(tenant, smsBody(TO));

    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(tenant, { to: TO, code: sent.body.data.code })));

    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 400 || status === 429)).toBe(true);
    const verified = answers.find((res) => res.status === 200);
    expect(verified?.body).toMatchObject({ status: 200, message: 'success', data: { uniq_id: sent.body.data.uniq_id } });
  });

  it('counts simultaneous wrong codes one by one: 5 are refused with 400, the rest and then the right code with 429', async () => {
    const tenant = await createTenant(t);
    const sent = await send(tenant, smsBody(TO));
    const wrong = sent.body.data.code.replace(/\d/g, (digit: string) => String((Number(digit) + 1) % 10));

    const answers = await Promise.all(Array.from({ length: 12 }, () => verify(tenant, { to: TO, code: wrong })));

    expect(countBy(answers.map((res) => res.status))).toEqual({ 400: 5, 429: 7 });
    const res = await verify(tenant, { to: TO, code: sent.body.data.code });
    expect(res.body).toMatchObject({ status: 429, message: 'trop_de_tentatives' });
  });

  it('accepts exactly as many simultaneous sends as the balance covers, and never overdraws', async () => {
    const tenant = await createTenant(t, { balance: '26.00' });

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => send(tenant, smsBody(recipient(i)))));

    expect(countBy(answers.map((res) => res.status))).toEqual({ 200: 10, 402: 30 });
    const account = await t.http().get('/v1/account').set('Authorization', tenant.auth);
    expect(account.body.data.balance).toBe(26 - 10 * 2.5);
    const ledger = await t.database.run((sql) =>
      sql.get<{ total: number | string }>('SELECT SUM(amount) AS total FROM ledger_entry WHERE account_id = ?', [tenant.accountId]),
    );
    expect(Number(ledger?.total)).toBe(100);
    const stored = await t.database.run((sql) =>
      sql.get<{ count: number | string }>('SELECT COUNT(*) AS count FROM otp WHERE account_id = ?', [tenant.accountId]),
    );
    expect(Number(stored?.count)).toBe(10);
    for (const refused of answers.filter((res) => res.status === 402)) {
      expect(refused.body).toEqual({ status: 402, message: 'solde_insuffisant', data: { costs: 2.5, balance: 1 } });
    }
  });

  it('has the database itself refuse a balance below zero, on update as on insert', async () => {
    const tenant = await createTenant(t, { balance: '1.00' });
    const refusal = (write: Promise<unknown>) => write.then(() => 'accepted', (error: unknown) => (isOverdraft(error) ? 'overdraft' : error));

    expect(await refusal(t.database.run((sql) => sql.run('UPDATE account SET balance = balance - 101 WHERE id = ?', [tenant.accountId])))).toBe('overdraft');
    expect(
      await refusal(t.database.run((sql) => sql.run("INSERT INTO account (id, name, balance, created_at) VALUES ('negative', 'Negative', -1, '2026-01-01 00:00:00')"))),
    ).toBe('overdraft');
    const account = await t.http().get('/v1/account').set('Authorization', tenant.auth);
    expect(account.body.data.balance).toBe(1);
  });

  it('accepts exactly 5 simultaneous sends to one recipient and refuses the rest with 429', async () => {
    const tenant = await createTenant(t);

    const answers = await Promise.all(Array.from({ length: 15 }, () => send(tenant, smsBody(TO))));

    expect(countBy(answers.map((res) => res.status))).toEqual({ 200: 5, 429: 10 });
    for (const refused of answers.filter((res) => res.status === 429)) {
      expect(refused.body).toEqual({ status: 429, message: 'trop_de_requetes', errors: [expect.any(String)] });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const account = await t.http().get('/v1/account').set('Authorization', tenant.auth);
    expect(account.body.data.balance).toBe(1000 - 5 * 2.5);
  });

  it('leaves exactly one pending code, the latest, after simultaneous sends to one recipient', async () => {
    const tenant = await createTenant(t);

    const answers = await Promise.all(Array.from({ length: 5 }, () => send(tenant, smsBody(TO, { otp_type: 'alphanumeric' }))));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);

    const otps = await t.database.run((sql) =>
      sql.all<{ uniq_id: string; status: string }>('SELECT uniq_id, status FROM otp WHERE account_id = ? AND recipient = ?', [
        tenant.accountId,
        TO,
      ]),
    );
    const pending = otps.filter((otp) => otp.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(otps.filter((otp) => otp.status === 'superseded')).toHaveLength(4);
    const latest = await t.database.run((sql) =>
      sql.get<{ latest_otp_id: string }>('SELECT latest_otp_id FROM otp_recipient WHERE account_id = ? AND recipient = ?', [
        tenant.accountId,
        TO,
      ]),
    );
    expect(latest?.latest_otp_id).toBe(pending[0].uniq_id);

    for (const res of answers.filter((answer) => answer.body.data.uniq_id !== pending[0].uniq_id)) {
      expect((await verify(tenant, { to: TO, code: res.body.data.code })).status).toBe(400);
    }
    const winner = answers.find((answer) => answer.body.data.uniq_id === pending[0].uniq_id);
    const res = await verify(tenant, { to: TO, code: winner?.body.data.code });
    expect(res.body).toMatchObject({ status: 200, data: { uniq_id: pending[0].uniq_id } });
  });
});
