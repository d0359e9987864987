import { SANDBOX_RECIPIENTS } from '../src/delivery/providers/sandbox.providers.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

/** Test (`mk_test_`) keys: stored like any send, never billed, never handed to a provider; magic recipients for each outcome. */
describe('sandbox', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  async function sandboxTenant(): Promise<Tenant> {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    expect(api_key).toMatch(/^mk_test_/);
    return { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };
  }

  const send = (tenant: Tenant, body: Record<string, unknown>) => t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(body);
  const smsOut = async (tenant: Tenant, id: string) =>
    (await t.http().get(`/v1/sms/out/${id}`).set('Authorization', tenant.auth).expect(200)).body.data as Record<string, unknown>;
  const balanceOf = async (tenant: Tenant) => (await t.http().get('/v1/account').set('Authorization', tenant.auth)).body.data.balance as number;
  const ledgerKinds = async (tenant: Tenant) =>
    (
      await t.database.run((sql) => sql.all<{ kind: string }>('SELECT kind FROM ledger_entry WHERE account_id = ? ORDER BY id', [tenant.accountId]))
    ).map((row) => row.kind);

  async function sendAndDeliver(tenant: Tenant, to: string): Promise<string> {
    const res = await send(tenant, smsBody(to));
    expect(res.body).toMatchObject({ status: 200, message: 'succès' });
    await t.deliver();
    return res.body.data.uniq_id as string;
  }

  it.each([
    ['delivered', SANDBOX_RECIPIENTS.delivered, 'DELIVRD'],
    ['undelivered', SANDBOX_RECIPIENTS.undelivered, 'UNDELIV'],
    ['failed', SANDBOX_RECIPIENTS.failed, 'REJECTD'],
  ])('moves a message to %s for %s, without touching the balance', async (status, to, providerStatus) => {
    const tenant = await sandboxTenant();
    const uniqId = await sendAndDeliver(tenant, to);

    const sms = await until(() => smsOut(tenant, uniqId), (read) => read.status !== 'pending' && read.status !== 'sent');
    expect(sms).toMatchObject({ status, provider: 'sandbox', provider_status: providerStatus, amount: 0, done_at: expect.any(String) });
    expect(await balanceOf(tenant)).toBe(1000);
    expect(await ledgerKinds(tenant)).toEqual(['opening']);
  });

  it('leaves any other recipient sent, stored and readable like a live message', async () => {
    const tenant = await sandboxTenant();
    const uniqId = await sendAndDeliver(tenant, '+2250707070707');

    expect(await smsOut(tenant, uniqId)).toMatchObject({
      uniq_id: uniqId,
      status: 'sent',
      provider: 'sandbox',
      provider_id: `sandbox-${uniqId}`,
      message: 'Votre code est ******',
      amount: 0,
    });
    expect(await balanceOf(tenant)).toBe(1000);
  });

  it('lets a sandbox code be verified like a live one', async () => {
    const tenant = await sandboxTenant();
    const sent = (await send(tenant, smsBody(SANDBOX_RECIPIENTS.delivered)).expect(200)).body.data as { code: string };
    const res = await t.http().post('/v1/otp/verify').set('Authorization', tenant.auth).send({ to: SANDBOX_RECIPIENTS.delivered, code: sent.code });
    expect(res.body).toMatchObject({ status: 200, message: 'success' });
  });

  it('accepts e-mail sends without billing them', async () => {
    const tenant = await sandboxTenant();
    await send(tenant, emailBody('dev@example.com')).expect(200);
    await t.deliver();
    expect(await balanceOf(tenant)).toBe(1000);
  });

  it('gives magic recipients no special course with a live key', async () => {
    const tenant = await createTenant(t);
    const uniqId = await sendAndDeliver(tenant, SANDBOX_RECIPIENTS.undelivered);

    expect(await smsOut(tenant, uniqId)).toMatchObject({ status: 'sent', provider: 'log' });
    expect(await balanceOf(tenant)).toBeLessThan(1000);
  });

  it('is documented on the send operation in the OpenAPI document', async () => {
    const doc = (await t.http().get('/docs-json').expect(200)).body;
    const description: string = doc.paths['/v1/otp/send'].post.description;
    for (const recipient of Object.values(SANDBOX_RECIPIENTS)) expect(description).toContain(recipient);
    expect(description).toContain('mk_test_');
  });

  it('still applies the per-recipient send limit', async () => {
    const tenant = await sandboxTenant();
    for (let i = 0; i < 5; i++) await send(tenant, smsBody(SANDBOX_RECIPIENTS.delivered)).expect(200);
    const res = await send(tenant, smsBody(SANDBOX_RECIPIENTS.delivered));
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ status: 429, message: 'trop_de_requetes' });
  });
});
