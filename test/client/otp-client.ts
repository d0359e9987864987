// A client written only against the types generated from /docs-json (api-types.ts, made by the OpenAPI client spec).
import type { components, paths } from './api-types.js';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Path extends keyof paths, Method extends 'get' | 'post' | 'delete'> = paths[Path][Method] extends { responses: infer R } ? R : never;
type Answer<Path extends keyof paths, Method extends 'get' | 'post' | 'delete'> = {
  [Status in keyof Responses<Path, Method>]: { status: Status; body: Json<Responses<Path, Method>[Status]> };
}[keyof Responses<Path, Method>];

export type SendBody = Json<paths['/v1/otp/send']['post']['requestBody']>;
export type VerifyBody = Json<paths['/v1/otp/verify']['post']['requestBody']>;
export type MessageOut = components['schemas']['MessageOutDto'];

export class OtpClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  send(body: SendBody, idempotencyKey?: string): Promise<Answer<'/v1/otp/send', 'post'>> {
    return this.call('POST', '/v1/otp/send', body, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {});
  }

  verify(body: VerifyBody): Promise<Answer<'/v1/otp/verify', 'post'>> {
    return this.call('POST', '/v1/otp/verify', body);
  }

  sms(id: string): Promise<Answer<'/v1/sms/out/{id}', 'get'>> {
    return this.call('GET', `/v1/sms/out/${encodeURIComponent(id)}`);
  }

  group(id: string): Promise<Answer<'/v1/group/{id}', 'get'>> {
    return this.call('GET', `/v1/group/${encodeURIComponent(id)}`);
  }

  deleteGroup(id: string): Promise<Answer<'/v1/group/{id}', 'delete'>> {
    return this.call('DELETE', `/v1/group/${encodeURIComponent(id)}`);
  }

  account(): Promise<Answer<'/v1/account', 'get'>> {
    return this.call('GET', '/v1/account');
  }

  private async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() } as T;
  }
}

/** Every documented field of an SMS record, read through the generated types. */
export function describeSms(sms: MessageOut): Record<string, unknown> {
  const { company, message_price, sender, contact, author } = sms;
  return {
    ids: [sms.company_id, sms.uniq_id, sms.external_id, sms.message_price_id, sms.sender_id, sms.contact_id, sms.lot, sms.created_by],
    text: [sms.type, sms.message, sms.page, sms.message_encoding, sms.amount, sms.language, sms.local_number],
    delivery: [sms.send_at, sms.done_at, sms.mccmnc, sms.dlr_number_retry, sms.provider, sms.provider_id, sms.provider_status],
    state: [sms.source, sms.status, sms.webhook_url, sms.webhook_response, sms.retrieve],
    company: [company.id, company.name, company.email, company.phone],
    price: message_price && [message_price.id, message_price.description, message_price.amount],
    sender: sender && [sender.id, sender.name, sender.email, sender.phone],
    contact: contact && [contact.id, contact.name, contact.email, contact.phone],
    author: author && [author.id, author.name, author.email],
  };
}

/** A client team's flow: send, verify, read the SMS, read and delete a group, read the account. */
export async function runFlow(client: OtpClient, to: string, groupId: string) {
  const sent = await client.send({ channel: 'SMS', to, message: 'Votre code est ##OTP##', otp_length: 6 });
  if (sent.status !== 200) throw new Error(`send answered ${sent.status}: ${sent.body.message}`);
  const { uniq_id, code, expires_at } = sent.body.data;

  const wrong = await client.verify({ to, code: code === '000000' ? '111111' : '000000' });
  const wrongErrors = wrong.status === 400 ? wrong.body.errors : [];
  const verified = await client.verify({ to, code });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}`);
  const verification = verified.body.data;

  const sms = await client.sms(uniq_id);
  if (sms.status !== 200) throw new Error(`sms answered ${sms.status}`);

  const group = await client.group(groupId);
  if (group.status !== 200) throw new Error(`group answered ${group.status}`);
  const { id, company_id, name, description, created_by, created_at } = group.body.data;
  const deleted = await client.deleteGroup(groupId);
  const missing = await client.group(groupId);

  const account = await client.account();
  if (account.status !== 200) throw new Error(`account answered ${account.status}`);
  const { balance, address, logo_url, country_id } = account.body.data;

  return {
    sent: { uniq_id, code, expires_at },
    wrong: { status: wrong.status, message: wrong.body.message, errors: wrongErrors },
    verification: [verification.uniq_id, verification.to, verification.channel, verification.verified_at, verification.send_at, verification.application_name],
    sms: describeSms(sms.body.data),
    group: { id, company_id, name, description, created_by, created_at },
    deleted: { status: deleted.status, message: deleted.body.message },
    missing: { status: missing.status, message: missing.body.message },
    account: { id: account.body.data.id, name: account.body.data.name, balance, address, logo_url, country_id, created_by: account.body.data.created_by, created_at: account.body.data.created_at },
  };
}
