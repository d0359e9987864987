// A client team's code, typed only by what openapi-typescript generates from /docs-json. The generated
// api-types.ts is written beside this file by test/openapi-client.e2e-spec.ts, which type-checks the client
// against it and then runs it against the service.
import type { components, paths } from './api-types.js';

type Method = 'get' | 'put' | 'post' | 'delete';
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Path extends keyof paths, M extends Method> = paths[Path][M] extends { responses: infer R } ? R : never;
/** Each documented answer of an operation: its status, and the body documented for that status. */
type Answer<Path extends keyof paths, M extends Method> = {
  [Status in keyof Responses<Path, M>]: { status: Status; body: Json<Responses<Path, M>[Status]> };
}[keyof Responses<Path, M>];

export type SendBody = Json<paths['/v1/otp/send']['post']['requestBody']>;
export type VerifyBody = Json<paths['/v1/otp/verify']['post']['requestBody']>;
export type WebhookBody = Json<paths['/v1/account/webhook']['put']['requestBody']>;
/** What a receiver gets for an `sms.*` event, typed from the document's components. */
export type SmsEvent = components['schemas']['SmsWebhookEventDto'];
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

  importContacts(file: ImportFile, options: ImportOptions = {}): Promise<Answer<'/v1/contact/import', 'post'>> {
    const query = new URLSearchParams(Object.entries(options).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.call('POST', `/v1/contact/import?${query}`, file, 'text/csv');
  }

  importJob(id: string): Promise<Answer<'/v1/contact/import/{id}', 'get'>> {
    return this.call('GET', `/v1/contact/import/${encodeURIComponent(id)}`);
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
