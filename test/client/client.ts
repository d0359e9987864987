// A client team's code, typed only by what openapi-typescript generates from /docs-json. The generated
// api-types.ts is written beside this file by test/openapi-client.e2e-spec.ts, which type-checks the client
// against it and then runs it against the service.
import type { components, paths } from './api-types.js';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Path extends keyof paths, M extends Method> = paths[Path][M] extends { responses: infer R } ? R : never;
/** Each documented answer of an operation: its status, and the body documented for that status. */
type Answer<Path extends keyof paths, M extends Method> = {
  [Status in keyof Responses<Path, M>]: { status: Status; body: Json<Responses<Path, M>[Status]> };
}[keyof Responses<Path, M>];

export type SendBody = Json<paths['/v1/otp/send']['post']['requestBody']>;
export type SmsBody = Json<paths['/v1/sms/send']['post']['requestBody']>;
export type UsageQuery = paths['/v1/metrics']['get']['parameters']['query'];
export type VerifyBody = Json<paths['/v1/otp/verify']['post']['requestBody']>;
export type WebhookBody = Json<paths['/v1/account/webhook']['put']['requestBody']>;
export type OptOutBody = Json<paths['/v1/opt-out']['post']['requestBody']>;
export type OptOutQuery = NonNullable<paths['/v1/opt-out']['get']['parameters']['query']>;
export type InboundQuery = NonNullable<paths['/v1/sms/in']['get']['parameters']['query']>;
export type HlrBody = Json<paths['/v1/hlr']['post']['requestBody']>;
export type HlrQuery = NonNullable<paths['/v1/hlr']['get']['parameters']['query']>;
export type NewContact = Json<paths['/v1/contact']['post']['requestBody']>;
export type ContactChanges = Json<paths['/v1/contact/{id}']['patch']['requestBody']>;
export type ContactBatch = Json<paths['/v1/contact/bulk']['post']['requestBody']>;
export type ContactQuery = NonNullable<paths['/v1/contact']['get']['parameters']['query']>;
export type NewMembers = Json<paths['/v1/group/{id}/contacts']['post']['requestBody']>;
export type SmsQuery = NonNullable<paths['/v1/sms/out']['get']['parameters']['query']>;
/** What a receiver gets for an `sms.*` event, typed from the document's components. */
export type SmsEvent = components['schemas']['SmsWebhookEventDto'];
/** What a receiver gets for a `contact.opted_out` or `contact.opted_in` event. */
export type ContactEvent = components['schemas']['ContactWebhookEventDto'];
/** What a receiver gets for an `sms.received` event. */
export type InboundEvent = components['schemas']['SmsReceivedWebhookEventDto'];
/** What a receiver gets for an `hlr.completed` event. */
export type HlrEvent = components['schemas']['HlrWebhookEventDto'];
export type ImportEvent = components['schemas']['ContactImportWebhookEventDto'];
export type ImportFile = paths['/v1/contact/import']['post']['requestBody']['content']['text/csv'];
export type ImportOptions = NonNullable<paths['/v1/contact/import']['post']['parameters']['query']>;
export type LedgerQuery = NonNullable<paths['/v1/balance/transactions']['get']['parameters']['query']>;
export type NewCampaign = Json<paths['/v1/campaign']['post']['requestBody']>;
export type CampaignChanges = Json<paths['/v1/campaign/{id}']['patch']['requestBody']>;
export type CampaignStatus = NonNullable<NonNullable<paths['/v1/campaign']['get']['parameters']['query']>['status']>;
/** What a receiver gets for `campaign.started`, `campaign.completed` or `campaign.cancelled`. */
export type CampaignEvent = components['schemas']['CampaignWebhookEventDto'];
/** What a receiver gets for `balance.low`. */
export type BalanceEvent = components['schemas']['BalanceWebhookEventDto'];

export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  send(body: SendBody): Promise<Answer<'/v1/otp/send', 'post'>> {
    return this.call('POST', '/v1/otp/send', body);
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

  createGroup(name: string, description?: string | null): Promise<Answer<'/v1/group', 'post'>> {
    return this.call('POST', '/v1/group', { name, description });
  }

  renameGroup(id: string, name: string): Promise<Answer<'/v1/group/{id}', 'patch'>> {
    return this.call('PATCH', `/v1/group/${encodeURIComponent(id)}`, { name });
  }

  groups(q?: string): Promise<Answer<'/v1/group', 'get'>> {
    return this.call('GET', `/v1/group${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`);
  }

  createContact(body: NewContact): Promise<Answer<'/v1/contact', 'post'>> {
    return this.call('POST', '/v1/contact', body);
  }

  contact(id: string): Promise<Answer<'/v1/contact/{id}', 'get'>> {
    return this.call('GET', `/v1/contact/${encodeURIComponent(id)}`);
  }

  updateContact(id: string, body: ContactChanges): Promise<Answer<'/v1/contact/{id}', 'patch'>> {
    return this.call('PATCH', `/v1/contact/${encodeURIComponent(id)}`, body);
  }

  deleteContact(id: string): Promise<Answer<'/v1/contact/{id}', 'delete'>> {
    return this.call('DELETE', `/v1/contact/${encodeURIComponent(id)}`);
  }

  contacts(query: ContactQuery = {}): Promise<Answer<'/v1/contact', 'get'>> {
    return this.call('GET', `/v1/contact?${new URLSearchParams(query as Record<string, string>)}`);
  }

  upsertContacts(body: ContactBatch): Promise<Answer<'/v1/contact/bulk', 'post'>> {
    return this.call('POST', '/v1/contact/bulk', body);
  }

  addMembers(groupId: string, body: NewMembers): Promise<Answer<'/v1/group/{id}/contacts', 'post'>> {
    return this.call('POST', `/v1/group/${encodeURIComponent(groupId)}/contacts`, body);
  }

  members(groupId: string, cursor?: string): Promise<Answer<'/v1/group/{id}/contacts', 'get'>> {
    return this.call('GET', `/v1/group/${encodeURIComponent(groupId)}/contacts?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
  }

  removeMembers(groupId: string, contactIds: string[]): Promise<Answer<'/v1/group/{id}/contacts/remove', 'post'>> {
    return this.call('POST', `/v1/group/${encodeURIComponent(groupId)}/contacts/remove`, { contact_ids: contactIds });
  }

  requestSender(body: Json<paths['/v1/sender']['post']['requestBody']>): Promise<Answer<'/v1/sender', 'post'>> {
    return this.call('POST', '/v1/sender', body);
  }

  senders(status?: 'pending' | 'approved' | 'rejected'): Promise<Answer<'/v1/sender', 'get'>> {
    return this.call('GET', `/v1/sender${status ? `?status=${status}` : ''}`);
  }

  makeDefaultSender(id: string): Promise<Answer<'/v1/sender/{id}/default', 'post'>> {
    return this.call('POST', `/v1/sender/${encodeURIComponent(id)}/default`);
  }

  withdrawSender(id: string): Promise<Answer<'/v1/sender/{id}', 'delete'>> {
    return this.call('DELETE', `/v1/sender/${encodeURIComponent(id)}`);
  }

  account(): Promise<Answer<'/v1/account', 'get'>> {
    return this.call('GET', '/v1/account');
  }

  webhook(): Promise<Answer<'/v1/account/webhook', 'get'>> {
    return this.call('GET', '/v1/account/webhook');
  }

  setWebhook(body: WebhookBody): Promise<Answer<'/v1/account/webhook', 'put'>> {
    return this.call('PUT', '/v1/account/webhook', body);
  }

  rotateWebhookSecret(): Promise<Answer<'/v1/account/webhook/secret', 'post'>> {
    return this.call('POST', '/v1/account/webhook/secret');
  }

  resendWebhook(id: string): Promise<Answer<'/v1/sms/out/{id}/webhook/resend', 'post'>> {
    return this.call('POST', `/v1/sms/out/${encodeURIComponent(id)}/webhook/resend`);
  }

  optOut(body: OptOutBody): Promise<Answer<'/v1/opt-out', 'post'>> {
    return this.call('POST', '/v1/opt-out', body);
  }

  optOuts(query: OptOutQuery = {}): Promise<Answer<'/v1/opt-out', 'get'>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call('GET', `/v1/opt-out?${search.toString()}`);
  }

  reSubscribe(phone: string): Promise<Answer<'/v1/opt-out/{phone}', 'delete'>> {
    return this.call('DELETE', `/v1/opt-out/${encodeURIComponent(phone)}`);
  }

  inbound(query: InboundQuery = {}): Promise<Answer<'/v1/sms/in', 'get'>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call('GET', `/v1/sms/in?${search.toString()}`);
  }

  lookUp(body: HlrBody, idempotencyKey?: string): Promise<Answer<'/v1/hlr', 'post'>> {
    return this.call('POST', '/v1/hlr', body, 'application/json', idempotencyKey);
  }

  lookups(query: HlrQuery = {}): Promise<Answer<'/v1/hlr', 'get'>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call('GET', `/v1/hlr?${search.toString()}`);
  }

  lookup(idOrLot: string): Promise<Answer<'/v1/hlr/{id}', 'get'>> {
    return this.call('GET', `/v1/hlr/${encodeURIComponent(idOrLot)}`);
  }

  importContacts(file: ImportFile, options: ImportOptions = {}): Promise<Answer<'/v1/contact/import', 'post'>> {
    const query = new URLSearchParams(Object.entries(options).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.call('POST', `/v1/contact/import?${query}`, file, 'text/csv');
  }

  importJob(id: string): Promise<Answer<'/v1/contact/import/{id}', 'get'>> {
    return this.call('GET', `/v1/contact/import/${encodeURIComponent(id)}`);
  }

  usage(query: UsageQuery): Promise<Answer<'/v1/metrics', 'get'>> {
    return this.call('GET', `/v1/metrics?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`);
  }

  sendSms(body: SmsBody): Promise<Answer<'/v1/sms/send', 'post'>> {
    return this.call('POST', '/v1/sms/send', body);
  }

  cancelSms(idOrLot: string): Promise<Answer<'/v1/sms/out/{id}/cancel', 'post'>> {
    return this.call('POST', `/v1/sms/out/${encodeURIComponent(idOrLot)}/cancel`);
  }

  balance(): Promise<Answer<'/v1/balance', 'get'>> {
    return this.call('GET', '/v1/balance');
  }

  transactions(query: LedgerQuery = {}): Promise<Answer<'/v1/balance/transactions', 'get'>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call('GET', `/v1/balance/transactions?${search.toString()}`);
  }

  setBalanceAlert(threshold: number | null): Promise<Answer<'/v1/balance/alert', 'put'>> {
    return this.call('PUT', '/v1/balance/alert', { threshold });
  }

  createCampaign(body: NewCampaign): Promise<Answer<'/v1/campaign', 'post'>> {
    return this.call('POST', '/v1/campaign', body);
  }

  campaign(id: string): Promise<Answer<'/v1/campaign/{id}', 'get'>> {
    return this.call('GET', `/v1/campaign/${encodeURIComponent(id)}`);
  }

  campaigns(status?: CampaignStatus): Promise<Answer<'/v1/campaign', 'get'>> {
    return this.call('GET', `/v1/campaign${status === undefined ? '' : `?status=${status}`}`);
  }

  updateCampaign(id: string, body: CampaignChanges): Promise<Answer<'/v1/campaign/{id}', 'patch'>> {
    return this.call('PATCH', `/v1/campaign/${encodeURIComponent(id)}`, body);
  }

  launchCampaign(id: string, sendAt?: string, idempotencyKey?: string): Promise<Answer<'/v1/campaign/{id}/launch', 'post'>> {
    const body = sendAt === undefined ? {} : { send_at: sendAt };
    return this.call('POST', `/v1/campaign/${encodeURIComponent(id)}/launch`, body, 'application/json', idempotencyKey);
  }

  deleteCampaign(id: string): Promise<Answer<'/v1/campaign/{id}', 'delete'>> {
    return this.call('DELETE', `/v1/campaign/${encodeURIComponent(id)}`);
  }

  cancelCampaign(id: string, reason?: string): Promise<Answer<'/v1/campaign/{id}/cancel', 'post'>> {
    return this.call('POST', `/v1/campaign/${encodeURIComponent(id)}/cancel`, reason === undefined ? {} : { reason });
  }

  messages(query: SmsQuery = {}): Promise<Answer<'/v1/sms/out', 'get'>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call('GET', `/v1/sms/out?${search.toString()}`);
  }

  lot(lot: string): Promise<Answer<'/v1/sms/lot/{lot}', 'get'>> {
    return this.call('GET', `/v1/sms/lot/${encodeURIComponent(lot)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown, type = 'application/json', idempotencyKey?: string): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'Content-Type': type }),
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
      },
      body: body === undefined ? null : type === 'application/json' ? JSON.stringify(body) : String(body),
    });
    return { status: response.status, body: await response.json() } as T;
  }
}

const unexpected = (answer: { status: unknown; body: unknown }) => new Error(`unexpected answer ${JSON.stringify(answer)}`);

/** Sends an SMS OTP, tries a wrong code, then the right one. */
export async function sendAndVerify(client: ApiClient, to: string) {
  const sent = await client.send({ channel: 'SMS', to, message: 'Votre code est ##OTP##', otp_length: 6 });
  if (sent.status !== 200) throw unexpected(sent);
  const { uniq_id, code, expires_at } = sent.body.data;

  const wrong = await client.verify({ to, code: code === '000000' ? '111111' : '000000' });
  if (wrong.status !== 400) throw unexpected(wrong);
  const verified = await client.verify({ to, code });
  if (verified.status !== 200) throw unexpected(verified);
  const verification = verified.body.data;

  return {
    sent: { status: sent.body.status, message: sent.body.message, data: { uniq_id, code, expires_at } },
    wrongCode: { status: wrong.body.status, message: wrong.body.message, errors: wrong.body.errors },
    verified: {
      status: verified.body.status,
      message: verified.body.message,
      data: {
        uniq_id: verification.uniq_id,
        to: verification.to,
        channel: verification.channel,
        verified_at: verification.verified_at,
        send_at: verification.send_at,
        application_name: verification.application_name,
      },
    },
  };
}

/** Sends an OTP, lets `elapse` move time past its expiry, then verifies it. */
export async function verifyTooLate(client: ApiClient, to: string, elapse: () => Promise<void>) {
  const sent = await client.send({ channel: 'SMS', to, message: 'Votre code est ##OTP##', otp_expiry: 60 });
  if (sent.status !== 200) throw unexpected(sent);
  await elapse();
  const late = await client.verify({ to, code: sent.body.data.code });
  if (late.status !== 410) throw unexpected(late);
  return { status: late.body.status, message: late.body.message, errors: late.body.errors };
}

export async function sendWithoutFunds(client: ApiClient, to: string) {
  const refused = await client.send({ channel: 'SMS', to, message: 'Votre code est ##OTP##' });
  if (refused.status !== 402) throw unexpected(refused);
  const { status, message, data } = refused.body;
  // both are always present, so the generated type must not make them optional
  const { costs, balance }: { costs: number; balance: number } = data;
  return { status, message, data: { costs, balance } };
}

/** Every documented field of one outgoing SMS, nested objects included. */
export async function readSms(client: ApiClient, id: string) {
  const answer = await client.sms(id);
  if (answer.status !== 200) throw unexpected(answer);
  const sms: components['schemas']['MessageOutDto'] = answer.body.data;
  const { company, message_price, sender, contact, author } = sms;
  return {
    status: answer.body.status,
    message: answer.body.message,
    data: {
      company_id: sms.company_id,
      uniq_id: sms.uniq_id,
      external_id: sms.external_id,
      message_price_id: sms.message_price_id,
      type: sms.type,
      lot: sms.lot,
      sender_id: sms.sender_id,
      contact_id: sms.contact_id,
      to: sms.to,
      campaign_id: sms.campaign_id,
      message: sms.message,
      page: sms.page,
      message_encoding: sms.message_encoding,
      amount: sms.amount,
      send_at: sms.send_at,
      done_at: sms.done_at,
      mccmnc: sms.mccmnc,
      dlr_number_retry: sms.dlr_number_retry,
      provider: sms.provider,
      provider_id: sms.provider_id,
      provider_status: sms.provider_status,
      source: sms.source,
      status: sms.status,
      created_by: sms.created_by,
      webhook_url: sms.webhook_url,
      webhook_response: sms.webhook_response,
      retrieve: sms.retrieve,
      local_number: sms.local_number,
      language: sms.language,
      sandbox: sms.sandbox,
      company: { id: company.id, name: company.name, email: company.email, phone: company.phone },
      message_price: message_price && { id: message_price.id, description: message_price.description, amount: message_price.amount },
      sender: sender && { id: sender.id, name: sender.name, email: sender.email, phone: sender.phone },
      contact: contact && { id: contact.id, name: contact.name, email: contact.email, phone: contact.phone },
      author: author && { id: author.id, name: author.name, email: author.email },
    },
  };
}

export async function readMissingSms(client: ApiClient, id: string) {
  const answer = await client.sms(id);
  if (answer.status !== 404) throw unexpected(answer);
  return { status: answer.body.status, message: answer.body.message, errors: answer.body.errors };
}

/** Reads a group, deletes it, then reads and deletes it again. */
export async function readThenDeleteGroup(client: ApiClient, id: string) {
  const found = await client.group(id);
  if (found.status !== 200) throw unexpected(found);
  const { company_id, name, description, created_by, created_at } = found.body.data;
  const deleted = await client.deleteGroup(id);
  if (deleted.status !== 200) throw unexpected(deleted);
  const gone = await client.group(id);
  if (gone.status !== 404) throw unexpected(gone);
  const deletedAgain = await client.deleteGroup(id);
  if (deletedAgain.status !== 404) throw unexpected(deletedAgain);

  return {
    found: { status: found.body.status, message: found.body.message, data: { id: found.body.data.id, company_id, name, description, created_by, created_at } },
    deleted: { status: deleted.body.status, message: deleted.body.message },
    gone: { status: gone.body.status, message: gone.body.message },
    deletedAgain: { status: deletedAgain.body.status, message: deletedAgain.body.message },
  };
}

export async function readAccount(client: ApiClient) {
  const answer = await client.account();
  if (answer.status === 401) return { status: answer.body.status, message: answer.body.message };
  if (answer.status !== 200) throw unexpected(answer);
  const { id, name, balance, address, logo_url, country_id, created_by, created_at } = answer.body.data;
  return { status: answer.body.status, message: answer.body.message, data: { id, name, balance, address, logo_url, country_id, created_by, created_at } };
}

/** Sets the account webhook, reads it back, rotates its secret, and asks for a resend of a message without events. */
export async function configureWebhook(client: ApiClient, url: string, messageId: string) {
  const set = await client.setWebhook({ url, events: ['sms.delivered', 'sms.failed'] });
  if (set.status !== 200) throw unexpected(set);
  const read = await client.webhook();
  if (read.status !== 200) throw unexpected(read);
  const rotated = await client.rotateWebhookSecret();
  if (rotated.status !== 200) throw unexpected(rotated);
  const refused = await client.setWebhook({ url: 'http://169.254.169.254/latest', events: [] });
  if (refused.status !== 400) throw unexpected(refused);
  const resend = await client.resendWebhook(messageId);
  if (resend.status !== 409) throw unexpected(resend);
  const { url: savedUrl, events, disabled_at, secret }: { url: string | null; events: string[]; disabled_at: string | null; secret: string | null } = set.body.data;
  return {
    set: { status: set.body.status, message: set.body.message, data: { url: savedUrl, events, disabled_at, secret } },
    read: { status: read.body.status, message: read.body.message, data: read.body.data },
    rotated: { status: rotated.body.status, message: rotated.body.message, data: { secret: rotated.body.data.secret } },
    refused: { status: refused.body.status, message: refused.body.message, errors: refused.body.errors },
    resend: { status: resend.body.status, message: resend.body.message, errors: resend.body.errors },
  };
}

/** Imports a CSV file, lets `finished` wait for the job, then reads it, and a job that does not exist. */
export async function importContacts(client: ApiClient, file: ImportFile, finished: () => Promise<void>) {
  const queued = await client.importContacts(file, { on_duplicate: 'update', delimiter: ';' });
  if (queued.status !== 202) throw unexpected(queued);
  await finished();
  const read = await client.importJob(queued.body.data.id);
  if (read.status !== 200) throw unexpected(read);
  const missing = await client.importJob('no-such-import');
  if (missing.status !== 404) throw unexpected(missing);
  const job: components['schemas']['ImportJobDto'] = read.body.data;
  const { status, rows, created, updated, duplicates, invalid, group_id, finished_at } = job;
  return {
    queued: { status: queued.body.status, message: queued.body.message, data: { id: queued.body.data.id, status: queued.body.data.status } },
    read: {
      status: read.body.status,
      message: read.body.message,
      data: { status, rows, created, updated, duplicates, invalid, errors: job.errors.map((error) => ({ row: error.row, errors: error.errors })), group_id, finished_at },
    },
    missing: { status: missing.body.status, message: missing.body.message, errors: missing.body.errors },
  };
}

/** A receiver's reading of an import's end, typed by the schema the document publishes. */
export const importSummary = (event: ImportEvent) => `${event.type} ${event.data.id} ${event.data.status} ${event.data.created}/${event.data.rows}`;

/** A receiver's reading of an event body, typed by the schema the document publishes. */
export const eventSummary = (event: SmsEvent) => `${event.type} ${event.data.uniq_id} #${event.data.sequence} ${event.data.status}`;

/**
 * Lists a national number (after a request refused for a bad one), reads the list, re-subscribes the number as listed, then tries again,
 * and tries to re-subscribe `stopped`, a number that texted STOP.
 */
export async function optOutAndBack(client: ApiClient, phone: string, stopped: string) {
  const refused = await client.optOut({ phones: [phone, 'abc'] });
  if (refused.status !== 400) throw unexpected(refused);
  const added = await client.optOut({ phones: [phone], default_country: 'CI' });
  if (added.status !== 200) throw unexpected(added);
  const listed = await client.optOuts({ source: 'api', limit: 10 });
  if (listed.status !== 200) throw unexpected(listed);
  const listedPhone = listed.body.data.items[0]?.phone ?? '';
  const removed = await client.reSubscribe(listedPhone);
  if (removed.status !== 200) throw unexpected(removed);
  const gone = await client.reSubscribe(listedPhone);
  if (gone.status !== 404) throw unexpected(gone);
  const kept = await client.reSubscribe(stopped);
  if (kept.status !== 409) throw unexpected(kept);
  const { added: count, already }: { added: number; already: number } = added.body.data;
  const { items, next_cursor, has_more } = listed.body.data;
  return {
    refused: { status: refused.body.status, message: refused.body.message, errors: refused.body.errors },
    added: { status: added.body.status, message: added.body.message, data: { added: count, already } },
    listed: {
      status: listed.body.status,
      message: listed.body.message,
      data: {
        items: items.map(({ id, phone, source, keyword, sender_id, created_by, created_at }) => ({ id, phone, source, keyword, sender_id, created_by, created_at })),
        next_cursor,
        has_more,
      },
    },
    removed: { status: removed.body.status, message: removed.body.message },
    gone: { status: gone.body.status, message: gone.body.message, errors: gone.body.errors },
    kept: { status: kept.body.status, message: kept.body.message, errors: kept.body.errors },
  };
}

/** A receiver's reading of an opt-out event body. */
export const contactEventSummary = (event: ContactEvent) =>
  `${event.type} ${event.data.phone} ${event.data.source} ${event.data.contact_id ?? '-'} ${event.data.sandbox ? 'sandbox' : 'live'} ${event.data.at}`;

/** A receiver's reading of an inbound message event body. */
export const inboundEventSummary = (event: InboundEvent) => `${event.type} ${event.data.from} > ${event.data.to} ${event.data.keyword ?? '-'} ${event.data.message_encoding}`;

/** Reads the inbox: the STOPs from one number, a page of everything, then a filter the document does not allow. */
export async function readInbox(client: ApiClient, from: string) {
  const stops = await client.inbound({ from, keyword: 'STOP' });
  if (stops.status !== 200) throw unexpected(stops);
  const page = await client.inbound({ limit: 1 });
  if (page.status !== 200) throw unexpected(page);
  const refused = await client.inbound({ keyword: 'stop' as 'STOP' });
  if (refused.status !== 400) throw unexpected(refused);
  return {
    stops: stops.body.data.items.map(({ from, to, message, message_encoding, keyword }) => ({ from, to, message, message_encoding, keyword })),
    page: { count: page.body.data.items.length, has_more: page.body.data.has_more, next_cursor: typeof page.body.data.next_cursor },
    refused: { status: refused.body.status, message: refused.body.message, errors: refused.body.errors },
  };
}

/** A receiver's reading of an HLR lookup event body. */
export const hlrEventSummary = (event: HlrEvent) =>
  `${event.type} ${event.data.number} ${event.data.status} ${event.data.reachable ?? '-'} ${event.data.network_name ?? '-'} ${event.data.ported ?? '-'}`;

/** Looks up two numbers (one invalid) once under an Idempotency-Key, waits for the answer, lists the lot, then reads a lookup that does not exist. */
export async function lookUpNumbers(client: ApiClient, numbers: string[], answered: () => Promise<void>) {
  const batch = await client.lookUp({ numbers, external_id: 'client-hlr' }, 'client-hlr-1');
  if (batch.status !== 200) throw unexpected(batch);
  const replay = await client.lookUp({ numbers, external_id: 'client-hlr' }, 'client-hlr-1');
  if (replay.status !== 200) throw unexpected(replay);
  await answered();
  const [first] = batch.body.data.lookups;
  const one = await client.lookup(first!.id);
  if (one.status !== 200) throw unexpected(one);
  const lot = await client.lookups({ lot: batch.body.data.lot, status: 'completed' });
  if (lot.status !== 200) throw unexpected(lot);
  const missing = await client.lookup('nope');
  if (missing.status !== 404) throw unexpected(missing);
  const { number, status, valid, reachable, country, mcc, mnc, network_name, provider } = one.body.data;
  return {
    batch: { count: batch.body.data.count, amount: batch.body.data.amount, rejected: batch.body.data.rejected, replayed: replay.body.data.lot === batch.body.data.lot },
    lookup: { number, status, valid, reachable, country, mcc, mnc, network_name, provider },
    lot: lot.body.data.items.map((item) => item.number),
    missing: { status: missing.body.status, message: missing.body.message, errors: missing.body.errors },
  };
}

/** Builds an address book: a group, contacts one by one and in bulk, members by id and phone; then reads and trims it. */
export async function buildAddressBook(client: ApiClient) {
  const group = await client.createGroup('Clients', null);
  if (group.status !== 201) throw unexpected(group);
  const groupId = group.body.data.id;
  const renamed = await client.renameGroup(groupId, 'Clients fidèles');
  if (renamed.status !== 200) throw unexpected(renamed);

  const awa = await client.createContact({ phone: '+2250707070707', name: 'Awa', attributes: { ville: 'Abidjan' }, group_ids: [groupId] });
  if (awa.status !== 201) throw unexpected(awa);
  const taken = await client.createContact({ phone: '+2250707070707' });
  if (taken.status !== 409) throw unexpected(taken);
  const batch = await client.upsertContacts({ contacts: [{ phone: '+221771234567', language: 'en' }, { phone: 'not a phone' }], on_duplicate: 'skip' });
  if (batch.status !== 200) throw unexpected(batch);
  const added = await client.addMembers(groupId, { phones: ['+221771234567', '06 12 34 56 78'], default_country: 'FR' });
  if (added.status !== 200) throw unexpected(added);

  const updated = await client.updateContact(awa.body.data.id, { name: 'Awa Koné', email: null });
  if (updated.status !== 200) throw unexpected(updated);
  const read = await client.contact(awa.body.data.id);
  if (read.status !== 200) throw unexpected(read);
  const found = await client.contacts({ q: 'awa' });
  if (found.status !== 200) throw unexpected(found);
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await client.members(groupId, cursor);
    if (page.status !== 200) throw unexpected(page);
    pages.push(page.body.data.items.map((contact) => contact.phone));
    cursor = page.body.data.next_cursor ?? undefined;
  } while (cursor);
  const removed = await client.removeMembers(groupId, [awa.body.data.id]);
  if (removed.status !== 200) throw unexpected(removed);
  const deleted = await client.deleteContact(awa.body.data.id);
  if (deleted.status !== 200) throw unexpected(deleted);
  const listed = await client.groups('clients');
  if (listed.status !== 200) throw unexpected(listed);

  return {
    group: { name: renamed.body.data.name, contact_count: renamed.body.data.contact_count },
    taken: { status: taken.body.status, message: taken.body.message, errors: taken.body.errors },
    batch: batch.body.data,
    added: added.body.data,
    contact: { name: read.body.data.name, email: read.body.data.email, attributes: read.body.data.attributes, group_ids: read.body.data.group_ids, opted_out: read.body.data.opted_out },
    found: found.body.data.items.map((contact) => contact.name),
    pages,
    removed: removed.body.data.removed,
    deleted: deleted.body.message,
    groups: listed.body.data.items.map((listedGroup) => ({ name: listedGroup.name, contact_count: listedGroup.contact_count })),
  };
}

/** Requests a sender ID, reads it among the pending ones, is refused making it the default, then withdraws it. */
export async function requestSenderId(client: ApiClient) {
  const requested = await client.requestSender({ name: 'MONAPP', use_case: 'Codes de connexion de nos clients', countries: ['CI'] });
  if (requested.status !== 201) throw unexpected(requested);
  const pending = await client.senders('pending');
  if (pending.status !== 200) throw unexpected(pending);
  const refused = await client.makeDefaultSender(requested.body.data.id);
  if (refused.status !== 409) throw unexpected(refused);
  const withdrawn = await client.withdrawSender(requested.body.data.id);
  if (withdrawn.status !== 200) throw unexpected(withdrawn);
  const { name, status, is_default, countries, reviewed_at } = requested.body.data;
  return {
    requested: { name, status, is_default, countries, reviewed_at },
    pending: pending.body.data.items.map((sender) => sender.name),
    refused: { status: refused.body.status, message: refused.body.message, errors: refused.body.errors },
    withdrawn: withdrawn.body.message,
  };
}

/** Sends to a group and a number, schedules a lot for tomorrow morning in Abidjan's working hours, then cancels it. */
export async function sendToGroupAndCancelALot(client: ApiClient, sendAt: string) {
  const group = await client.createGroup('Clients');
  if (group.status !== 201) throw unexpected(group);
  const members = await client.addMembers(group.body.data.id, { phones: ['+221771234568'] });
  if (members.status !== 200) throw unexpected(members);
  const now = await client.sendSms({ to: '+2250707070707', group_ids: [group.body.data.id], message: 'Bonjour ##NAME##' });
  if (now.status !== 200) throw unexpected(now);
  const window = { days: ['mon', 'tue', 'wed', 'thu', 'fri'] as Array<'mon' | 'tue' | 'wed' | 'thu' | 'fri'>, from: '08:00', to: '18:00', timezone: 'Africa/Abidjan' };
  const later = await client.sendSms({ to: ['+2250707070708', '+221771234567'], message: 'Soldes demain', lot: 'soldes-demain', send_at: sendAt, delivery_window: window });
  if (later.status !== 200) throw unexpected(later);
  const cancelled = await client.cancelSms('soldes-demain');
  if (cancelled.status !== 200) throw unexpected(cancelled);
  const again = await client.cancelSms('soldes-demain');
  if (again.status !== 409) throw unexpected(again);
  return {
    sent: { count: now.body.data.count, amount: now.body.data.amount, to: (now.body.data.messages ?? []).map((message) => message.to) },
    scheduled: { scheduled: later.body.data.scheduled, statuses: (later.body.data.messages ?? []).map((message) => message.status) },
    cancelled: cancelled.body.data,
    again: { status: again.body.status, message: again.body.message, errors: again.body.errors },
  };
}

/** Sets a low-balance alert (after a refused one), sends an OTP, then reads the balance and the ledger's debits a page at a time. */
export async function watchTheBalance(client: ApiClient, to: string) {
  const refused = await client.setBalanceAlert(-5);
  if (refused.status !== 400) throw unexpected(refused);
  const alert = await client.setBalanceAlert(999);
  if (alert.status !== 200) throw unexpected(alert);
  const sent = await client.send({ channel: 'SMS', to, message: 'Votre code est ##OTP##' });
  if (sent.status !== 200) throw unexpected(sent);
  const balance = await client.balance();
  if (balance.status !== 200) throw unexpected(balance);
  const first = await client.transactions({ limit: 1 });
  if (first.status !== 200) throw unexpected(first);
  const next = await client.transactions({ limit: 1, cursor: first.body.data.next_cursor ?? '' });
  if (next.status !== 200) throw unexpected(next);
  const foreignCursor = await client.transactions({ type: 'debit', cursor: first.body.data.next_cursor ?? '' });
  if (foreignCursor.status !== 400) throw unexpected(foreignCursor);
  const row = ({ type, amount, balance_after, reference_type, reference_id, description }: (typeof first.body.data.items)[number]) => ({
    type,
    amount,
    balance_after,
    reference_type,
    reference_id,
    description,
  });
  const { currency, low_balance_threshold } = balance.body.data;
  return {
    refused: { status: refused.body.status, message: refused.body.message, errors: refused.body.errors },
    balance: { balance: balance.body.data.balance, currency, low_balance_threshold },
    pages: [first.body.data.items.map(row), next.body.data.items.map(row)],
    more: [first.body.data.has_more, next.body.data.has_more],
    sent: sent.body.data.uniq_id,
    foreignCursor: { status: foreignCursor.body.status, message: foreignCursor.body.message, errors: foreignCursor.body.errors },
  };
}

/**
 * Drafts a campaign to a group, edits it, launches it once under an Idempotency-Key, reads its counts once its messages are
 * written, is refused an edit and a deletion, then cancels it; deletes another draft.
 */
export async function runACampaign(client: ApiClient, phones: string[], materialised: () => Promise<void>) {
  const group = await client.createGroup('Abonnés');
  if (group.status !== 201) throw unexpected(group);
  const members = await client.addMembers(group.body.data.id, { phones });
  if (members.status !== 200) throw unexpected(members);
  const draft = await client.createCampaign({ name: 'Soldes', message: 'Soldes ce week-end', group_ids: [group.body.data.id], append_opt_out: false });
  if (draft.status !== 201) throw unexpected(draft);
  const id = draft.body.data.id;
  const renamed = await client.updateCampaign(id, { name: 'Soldes de mars' });
  if (renamed.status !== 200) throw unexpected(renamed);
  const launched = await client.launchCampaign(id, undefined, 'client-campaign-1');
  if (launched.status !== 200) throw unexpected(launched);
  const replay = await client.launchCampaign(id, undefined, 'client-campaign-1');
  if (replay.status !== 200) throw unexpected(replay);
  await materialised();
  const running = await client.campaign(id);
  if (running.status !== 200) throw unexpected(running);
  const frozen = await client.updateCampaign(id, { name: 'Trop tard' });
  if (frozen.status !== 409) throw unexpected(frozen);
  const kept = await client.deleteCampaign(id);
  if (kept.status !== 409) throw unexpected(kept);
  const cancelled = await client.cancelCampaign(id, 'Stock épuisé');
  if (cancelled.status !== 200) throw unexpected(cancelled);
  const scrap = await client.createCampaign({ name: 'Brouillon', message: 'À jeter', group_ids: [group.body.data.id] });
  if (scrap.status !== 201) throw unexpected(scrap);
  const deleted = await client.deleteCampaign(scrap.body.data.id);
  if (deleted.status !== 200) throw unexpected(deleted);
  const gone = await client.campaign(scrap.body.data.id);
  if (gone.status !== 404) throw unexpected(gone);
  const listed = await client.campaigns('cancelled');
  if (listed.status !== 200) throw unexpected(listed);
  const { recipients, scheduled, pending, sent, cancelled: dropped } = running.body.data.counts;
  return {
    draft: { name: renamed.body.data.name, status: draft.body.data.status, amount: draft.body.data.amount },
    launched: {
      status: launched.body.data.status,
      amount: launched.body.data.amount,
      recipients: launched.body.data.counts.recipients,
      replayed: replay.body.data.lot === launched.body.data.lot,
    },
    running: { recipients, handedOver: scheduled + pending + sent, cancelled: dropped },
    frozen: { status: frozen.body.status, message: frozen.body.message, errors: frozen.body.errors },
    kept: { status: kept.body.status, message: kept.body.message, errors: kept.body.errors },
    cancelled: { status: cancelled.body.data.status, cancel_reason: cancelled.body.data.cancel_reason, refunded: cancelled.body.data.refunded },
    listed: listed.body.data.items.map((campaign) => campaign.name),
    deleted: { status: deleted.body.status, message: deleted.body.message, gone: gone.body.message },
  };
}

/** A receiver's reading of a `campaign.*` body. */
export const campaignEventSummary = (event: CampaignEvent) => `${event.type} ${event.data.name} ${event.data.status} ${event.data.recipients}`;

/** A receiver's reading of a `balance.low` body. */
export const balanceEventSummary = (event: BalanceEvent) => `${event.type} ${event.data.balance} ${event.data.currency} < ${event.data.low_balance_threshold}`;

/** The month's figures in Abidjan's time, by week. */
export async function readUsage(client: ApiClient, from: string, to: string) {
  const answer = await client.usage({ created_from: from, created_to: to, granularity: 'week', timezone: 'Africa/Abidjan' });
  if (answer.status !== 200) throw unexpected(answer);
  const { totals, buckets } = answer.body.data;
  return { messages: totals.messages, amount: totals.amount, weeks: buckets.map((bucket) => bucket.period).length > 0, rate: totals.delivery_rate };
}
/** Sends a lot, reads its messages two by two with the cursor, narrows them by number and status, and reads its progress. */
export async function followALot(client: ApiClient, lot: string) {
  const sent = await client.sendSms({ to: ['+2250707070701', '+2250707070702', '+221771234567'], message: 'Votre commande est prête', lot, external_id: 'commande-7' });
  if (sent.status !== 200) throw unexpected(sent);
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await client.messages({ lot, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
    if (page.status !== 200) throw unexpected(page);
    pages.push(page.body.data.items.map((message) => message.to));
    cursor = page.body.data.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const narrowed = await client.messages({ lot, to: '+221771234567', status: 'pending,sent', external_id: 'commande-7' });
  if (narrowed.status !== 200) throw unexpected(narrowed);
  const refused = await client.messages({ status: 'envoyé' });
  if (refused.status !== 400) throw unexpected(refused);
  const progress = await client.lot(lot);
  if (progress.status !== 200) throw unexpected(progress);
  const missing = await client.lot('inconnu');
  if (missing.status !== 404) throw unexpected(missing);
  const { count, amount, by_status, campaign_id } = progress.body.data;
  return {
    pages,
    narrowed: narrowed.body.data.items.map(({ to, lot: itsLot, external_id, type, sandbox }) => ({ to, lot: itsLot, external_id, type, sandbox })),
    refused: { status: refused.body.status, message: refused.body.message, errors: refused.body.errors },
    progress: { count, amount, by_status, campaign_id },
    missing: { status: missing.body.status, message: missing.body.message, errors: missing.body.errors },
  };
}
