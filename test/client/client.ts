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
export type VerifyBody = Json<paths['/v1/otp/verify']['post']['requestBody']>;
export type WebhookBody = Json<paths['/v1/account/webhook']['put']['requestBody']>;
export type OptOutBody = Json<paths['/v1/opt-out']['post']['requestBody']>;
export type OptOutQuery = NonNullable<paths['/v1/opt-out']['get']['parameters']['query']>;
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
export type ImportEvent = components['schemas']['ContactImportWebhookEventDto'];
export type ImportFile = paths['/v1/contact/import']['post']['requestBody']['content']['text/csv'];
export type ImportOptions = NonNullable<paths['/v1/contact/import']['post']['parameters']['query']>;

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

  importContacts(file: ImportFile, options: ImportOptions = {}): Promise<Answer<'/v1/contact/import', 'post'>> {
    const query = new URLSearchParams(Object.entries(options).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.call('POST', `/v1/contact/import?${query}`, file, 'text/csv');
  }

  importJob(id: string): Promise<Answer<'/v1/contact/import/{id}', 'get'>> {
    return this.call('GET', `/v1/contact/import/${encodeURIComponent(id)}`);
  }

  sendSms(body: SmsBody): Promise<Answer<'/v1/sms/send', 'post'>> {
    return this.call('POST', '/v1/sms/send', body);
  }

  cancelSms(idOrLot: string): Promise<Answer<'/v1/sms/out/{id}/cancel', 'post'>> {
    return this.call('POST', `/v1/sms/out/${encodeURIComponent(idOrLot)}/cancel`);
  }

  messages(query: SmsQuery = {}): Promise<Answer<'/v1/sms/out', 'get'>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call('GET', `/v1/sms/out?${search.toString()}`);
  }

  lot(lot: string): Promise<Answer<'/v1/sms/lot/{lot}', 'get'>> {
    return this.call('GET', `/v1/sms/lot/${encodeURIComponent(lot)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown, type = 'application/json'): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'Content-Type': type }) },
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
export async function sendToGroupAndCancelALot(client: ApiClient, groupId: string, sendAt: string) {
  const now = await client.sendSms({ to: '+2250707070707', group_ids: [groupId], message: 'Bonjour ##NAME##' });
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
