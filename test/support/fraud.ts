import { createTenant, smsBody, type Tenant } from './fixtures.js';
import type { TestApp } from './test-app.js';

/** Calls of the fraud guard's routes and of the OTP send for one tenant, with what a spec reads back of the database. */
export function fraudCalls(t: TestApp) {
  const send = (tenant: Tenant, to: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    t.http().post('/v1/otp/send').set('Authorization', tenant.auth).set(headers).send(smsBody(to, extra));
  const setPolicy = async (tenant: Tenant, policy: Record<string, unknown>) =>
    (await t.http().put('/v1/fraud/policy').set('Authorization', tenant.auth).send(policy).expect(200)).body.data;
  const listEntry = async (tenant: Tenant, entry: Record<string, unknown>) =>
    (await t.http().post('/v1/fraud/list').set('Authorization', tenant.auth).send(entry).expect(201)).body.data;
  const attempts = async (tenant: Tenant, query: Record<string, string> = {}) =>
    (await t.http().get('/v1/fraud/attempts').query({ limit: '100', ...query }).set('Authorization', tenant.auth).expect(200)).body.data.items as Array<Record<string, unknown>>;
  const blocks = async (tenant: Tenant, query: Record<string, string> = {}) =>
    (await t.http().get('/v1/fraud/blocks').query({ limit: '100', ...query }).set('Authorization', tenant.auth).expect(200)).body.data.items as Array<Record<string, unknown>>;
  const count = async (table: string, tenant: Tenant) =>
    Number((await t.database.run((sql) => sql.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ?`, [tenant.accountId])))!.n);
  const balance = async (tenant: Tenant): Promise<number> => (await t.http().get('/v1/account').set('Authorization', tenant.auth).expect(200)).body.data.balance;
  /** What a refused send left behind: nothing but its attempt. */
  const stored = async (tenant: Tenant) => ({
    otp: await count('otp', tenant),
    message_out: await count('message_out', tenant),
    outbox: await count('outbox', tenant),
    ledger_entry: await count('ledger_entry', tenant),
    fraud_attempt: await count('fraud_attempt', tenant),
  });
  const sandboxTenant = async (): Promise<Tenant> => {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    return { ...tenant, apiKey: api_key, auth: `Bearer ${api_key}` };
  };
  return { send, setPolicy, listEntry, attempts, blocks, count, balance, stored, sandboxTenant };
}

/** Mobile numbers of Côte d'Ivoire under one prefix (`+225070707`: the number without its last four digits). */
export const ciNumber = (prefix: string, n: number) => `${prefix}${String(n).padStart(4, '0')}`;
