import { createTenant, smsBody } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /v1/account', () => {
  let t: TestApp;

  const read = (auth: string) => t.http().get('/v1/account').set('Authorization', auth);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers 200 OK with the whole account', async () => {
    const before = t.clock.now().getTime();
    const tenant = await createTenant(t, { name: 'Boutique Awa', balance: '1000.00' });

    const res = await read(tenant.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 200,
      message: 'OK',
      data: {
        id: tenant.accountId,
        name: 'Boutique Awa',
        balance: 1000,
        address: null,
        logo_url: null,
        country_id: null,
        created_by: tenant.userId,
        created_at: expect.stringMatching(ISO_UTC),
      },
    });
    expect(Date.parse(res.body.data.created_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(res.body.data.created_at)).toBeLessThanOrEqual(t.clock.now().getTime());
  });

  it('gives the balance as a number with its decimals', async () => {
    const tenant = await createTenant(t, { balance: '12.34' });

    const res = await read(tenant.auth);

    expect(res.body.data.balance).toBe(12.34);
  });

  it('gives a zero balance as 0', async () => {
    const tenant = await createTenant(t, { balance: '0' });

    const res = await read(tenant.auth);

    expect(res.body.data.balance).toBe(0);
  });

  it('shows a credit', async () => {
    const tenant = await createTenant(t, { balance: '10.00' });
    await t.admin.credit(tenant.accountId, '25.75');

    const res = await read(tenant.auth);

    expect(res.body.data.balance).toBe(35.75);
  });

  it('shows the debit of an OTP send', async () => {
    const tenant = await createTenant(t, { balance: '10.00' });
    await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070707')).expect(200);

    const res = await read(tenant.auth);

    expect(res.body.data.balance).toBe(7.5);
  });

  it("answers each tenant's own account", async () => {
    const first = await createTenant(t, { name: 'Premier', balance: '100.00' });
    const second = await createTenant(t, { name: 'Second', balance: '200.00' });
    await t.admin.credit(second.accountId, '1.50');

    const [one, two] = await Promise.all([read(first.auth), read(second.auth)]);

    expect(one.body.data).toEqual(expect.objectContaining({ id: first.accountId, name: 'Premier', balance: 100, created_by: first.userId }));
    expect(two.body.data).toEqual(expect.objectContaining({ id: second.accountId, name: 'Second', balance: 201.5, created_by: second.userId }));
  });

  it("answers another user's JWT with the account and its owner as created_by", async () => {
    const tenant = await createTenant(t, { name: 'Équipe' });
    const { user_id } = await t.admin.createUser(tenant.accountId, 'Bintou');
    const { token } = await t.admin.issueToken(user_id);

    const res = await read(`Bearer ${token}`);

    expect(res.body).toEqual({
      status: 200,
      message: 'OK',
      data: expect.objectContaining({ id: tenant.accountId, name: 'Équipe', created_by: tenant.userId }),
    });
  });

  it('answers the same account to a mk_test_ key', async () => {
    const tenant = await createTenant(t, { name: 'Bac à sable', balance: '5.00' });
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);

    const res = await read(`Bearer ${api_key}`);

    expect(res.body.data).toEqual(expect.objectContaining({ id: tenant.accountId, balance: 5 }));
  });
});
