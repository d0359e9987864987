import { OperatorKeyService } from '../../src/admin/operator-key.service.js';
import type { TestApp } from './test-app.js';

export interface Tenant {
  accountId: string;
  userId: string;
  senderId: string;
  apiKey: string;
  /** `Authorization` header value. */
  auth: string;
}

let tenants = 0;

/** An account with its owner, default sender `DEMO` and a live API key. */
export async function createTenant(t: TestApp, options: { balance?: string; name?: string; sender?: string } = {}): Promise<Tenant> {
  const created = await t.admin.createAccount({
    name: options.name ?? `Tenant ${++tenants}`,
    sender: options.sender ?? 'DEMO',
    balance: options.balance ?? '1000.00',
  });
  return {
    accountId: created.account_id,
    userId: created.user_id,
    senderId: created.sender_id,
    apiKey: created.api_key,
    auth: `Bearer ${created.api_key}`,
  };
}

/** The `Authorization` header value of a new operator key, for `/v1/admin`. */
export async function createOperator(t: TestApp, name = 'Ops'): Promise<string> {
  return `Bearer ${(await t.app.get(OperatorKeyService).create(name)).operator_key}`;
}

export const smsBody = (to: string, extra: Record<string, unknown> = {}) => ({
  channel: 'SMS',
  to,
  message: 'Votre code est ##OTP##',
  ...extra,
});

export const emailBody = (to: string, extra: Record<string, unknown> = {}) => ({
  channel: 'EMAIL',
  to,
  message: 'Votre code est ##OTP##',
  ...extra,
});
