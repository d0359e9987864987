import type { OpenAPIObject } from '@nestjs/swagger';
import request from 'supertest';
import { createTenant, smsBody, type Tenant } from './support/fixtures.js';
import { checkedAgainst, OpenApiAnswers, type Answer } from './support/openapi-answers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const MESSAGE_ID = '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e09';

/** Every answer an e2e test receives is checked against the document; here the check itself is put to the test. */
describe('Answers checked against the OpenAPI document', () => {
  let t: TestApp;
  let tenant: Tenant;
  let document: OpenAPIObject;
  let answers: OpenApiAnswers;
  let account: Record<string, unknown>;

  const answer = (overrides: Partial<Answer>): Answer => ({
    method: 'GET',
    url: '/v1/account',
    status: 200,
    contentType: JSON_TYPE,
    body: { status: 200, message: 'OK', data: account },
    ...overrides,
  });

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
    document = (await t.http().get('/docs-json').expect(200)).body;
    answers = new OpenApiAnswers(document);
    account = (await t.http().get('/v1/account').set('Authorization', tenant.auth).expect(200)).body.data;
  });
  afterAll(() => t?.close());

  it('accepts an answer the document describes', () => {
    expect(answers.problem(answer({}))).toBeUndefined();
  });

  it('refuses a body that does not match the schema', () => {
    const problem = answers.problem(answer({ body: { status: 200, message: 'OK', data: { ...account, balance: '12' } } }));

    expect(problem).toContain('/data/balance must be number');
  });

  it('refuses a status the operation does not document', () => {
    expect(answers.problem(answer({ status: 409, body: { status: 409, message: 'conflit' } }))).toContain('GET /v1/account → 409 is not documented');
  });

  it('refuses an envelope whose status is not the HTTP status', () => {
    expect(answers.problem(answer({ status: 401, body: { status: 403, message: 'Non autorisé' } }))).toContain('/status must be equal to one of the allowed values');
  });

  it('refuses a media type the response does not document', () => {
    expect(answers.problem(answer({ contentType: 'text/plain' }))).toContain('text/plain is not documented');
  });

  it('refuses an answer to a path that is not an operation, unless it is the router’s 404', () => {
    expect(answers.problem(answer({ url: '/v1/nothing', status: 200 }))).toContain('is not an operation of the document');
    expect(answers.problem(answer({ url: '/v1/nothing', status: 404, body: { status: 404, message: 'Non trouvé' } }))).toBeUndefined();
  });

  it('accepts a message whose related objects are null', () => {
    const schema = document.components!.schemas!.MessageOutDto as { properties: Record<string, unknown> };
    const message = Object.fromEntries(Object.keys(schema.properties).map((field) => [field, null]));
    const body = { status: 200, message: 'succès', data: message };

    const problem = answers.problem(answer({ url: `/v1/sms/out/${MESSAGE_ID}`, body }));

    for (const field of ['contact', 'sender', 'message_price', 'author', 'contact_id', 'done_at']) expect(problem ?? '').not.toContain(`/data/${field} `);
  });

  it('checks every item of a page of SMS as a MessageOut, and a lot summary down to its counts', async () => {
    const sent = (await t.http().post('/v1/otp/send').set('Authorization', tenant.auth).send(smsBody('+2250707070707')).expect(200)).body.data;
    const page = (await t.http().get('/v1/sms/out').set('Authorization', tenant.auth).expect(200)).body;
    const { lot } = page.data.items[0];
    const summary = (await t.http().get(`/v1/sms/lot/${lot}`).set('Authorization', tenant.auth).expect(200)).body;
    const withoutTo = structuredClone(page);
    delete withoutTo.data.items[0].to;
    const sandboxAsText = structuredClone(page);
    sandboxAsText.data.items[0].sandbox = 'false';
    const withoutCancelled = structuredClone(summary);
    delete withoutCancelled.data.by_status.cancelled;

    expect(page.data.items[0].uniq_id).toBe(sent.uniq_id);
    expect(answers.problem(answer({ url: '/v1/sms/out?status=pending', body: page }))).toBeUndefined();
    expect(answers.problem(answer({ url: '/v1/sms/out', body: withoutTo }))).toContain("/data/items/0 must have required property 'to'");
    expect(answers.problem(answer({ url: '/v1/sms/out', body: sandboxAsText }))).toContain('/data/items/0/sandbox must be boolean');
    expect(answers.problem(answer({ url: `/v1/sms/lot/${lot}`, body: summary }))).toBeUndefined();
    expect(answers.problem(answer({ url: `/v1/sms/lot/${lot}`, body: withoutCancelled }))).toContain("/data/by_status must have required property 'cancelled'");
    expect(answers.problem(answer({ url: `/v1/sms/lot/${lot}`, status: 404, body: { status: 404, message: 'Non trouvé' } }))).toContain("must have required property 'errors'");
  });

  it('fails the request, where it was made, when its answer is not described', async () => {
    const withoutAccount200 = structuredClone(document);
    delete withoutAccount200.paths['/v1/account'].get!.responses[200];
    const client = checkedAgainst(new OpenApiAnswers(withoutAccount200), request(t.app.getHttpServer()));

    await expect(client.get('/v1/account').set('Authorization', tenant.auth)).rejects.toThrow('GET /v1/account → 200 is not documented');
  });
});
