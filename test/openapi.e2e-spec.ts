import { startTestApp, type TestApp } from './support/test-app.js';

interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  required?: string[];
  properties?: Record<string, Schema>;
  example?: unknown;
  $ref?: string;
  allOf?: Schema[];
}

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: Schema; example?: unknown }> }>;
}

interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, unknown>> };
}

const OPERATIONS: Array<[method: string, path: string, statuses: number[]]> = [
  ['post', '/v1/otp/send', [200, 400, 401, 402, 429, 500]],
  ['post', '/v1/otp/verify', [200, 400, 401, 410, 429, 500]],
  ['get', '/v1/sms/out/{id}', [200, 401, 404]],
  ['get', '/v1/sms/out', [200, 400, 401]],
  ['get', '/v1/sms/lot/{lot}', [200, 401, 404]],
  ['get', '/v1/group/{id}', [200, 401, 404]],
  ['delete', '/v1/group/{id}', [200, 401, 404]],
  ['get', '/v1/account', [200, 401]],
  ['post', '/v1/sms/out/{id}/webhook/resend', [200, 401, 404, 409]],
  ['get', '/v1/account/webhook', [200, 401]],
  ['put', '/v1/account/webhook', [200, 400, 401]],
  ['post', '/v1/account/webhook/secret', [200, 401]],
  ['get', '/v1/otp', [200, 400, 401, 403]],
  ['get', '/v1/otp/{uniq_id}', [200, 401, 403, 404]],
  ['get', '/v1/admin/accounts', [200, 400, 401, 403]],
  ['post', '/v1/admin/accounts/{id}/credit', [200, 400, 401, 403, 404, 409, 422]],
  ['get', '/v1/admin/senders', [200, 400, 401, 403]],
  ['post', '/v1/admin/senders/{id}/approve', [200, 401, 403, 404, 409]],
  ['post', '/v1/admin/senders/{id}/reject', [200, 400, 401, 403, 404, 409]],
];

const ERROR_MESSAGES: Array<[method: string, path: string, messages: Record<number, string>]> = [
  ['post', '/v1/otp/send', { 400: 'erreur_de_validation', 401: 'Non autorisé', 402: 'solde_insuffisant', 429: 'trop_de_requetes', 500: 'erreur_application' }],
  ['post', '/v1/otp/verify', { 400: 'erreur_de_validation', 401: 'Non autorisé', 410: 'code_otp_expir', 429: 'trop_de_tentatives', 500: 'erreur_interne' }],
  ['get', '/v1/sms/out/{id}', { 401: 'Non autorisé', 404: 'Non trouvé' }],
  ['get', '/v1/sms/out', { 400: 'erreur_de_validation', 401: 'Non autorisé' }],
  ['get', '/v1/sms/lot/{lot}', { 401: 'Non autorisé', 404: 'Non trouvé' }],
  ['get', '/v1/group/{id}', { 401: 'Non autorisé', 404: 'Groupe non trouvé' }],
  ['delete', '/v1/group/{id}', { 401: 'Non autorisé', 404: 'Groupe non trouvé' }],
  ['get', '/v1/account', { 401: 'Non autorisé' }],
];

const SUCCESS_MESSAGES: Array<[method: string, path: string, message: string, data: string | null]> = [
  ['post', '/v1/otp/send', 'succès', 'OtpSendResultDto'],
  ['post', '/v1/otp/verify', 'success', 'OtpVerificationDto'],
  ['get', '/v1/sms/out/{id}', 'succès', 'MessageOutDto'],
  ['get', '/v1/sms/lot/{lot}', 'succès', 'LotSummaryDto'],
  ['get', '/v1/group/{id}', 'succès', 'GroupDto'],
  ['delete', '/v1/group/{id}', 'success', null],
  ['get', '/v1/account', 'OK', 'AccountDto'],
];

/** The fields of each resource, as INTERFACE.md lists them (and SPEC-2 adds to them). */
const RESOURCE_FIELDS: Record<string, string[]> = {
  OtpSendResultDto: ['uniq_id', 'code', 'expires_at'],
  OtpVerificationDto: ['uniq_id', 'to', 'channel', 'verified_at', 'send_at', 'application_name'],
  MessageOutDto: [
    'company_id', 'uniq_id', 'external_id', 'message_price_id', 'type', 'lot', 'sender_id', 'contact_id', 'message', 'page',
    'message_encoding', 'amount', 'send_at', 'done_at', 'mccmnc', 'dlr_number_retry', 'provider', 'provider_id',
    'provider_status', 'source', 'status', 'created_by', 'webhook_url', 'webhook_response', 'retrieve', 'local_number',
    'language', 'company', 'message_price', 'sender', 'contact', 'author',
    'to', 'campaign_id', 'sandbox',
  ],
  LotSummaryDto: ['lot', 'campaign_id', 'count', 'amount', 'by_status', 'created_at'],
  MessageStatusCountsDto: ['scheduled', 'pending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled'],
  // the interface's fields, then those SPEC-2 adds
  GroupDto: ['id', 'company_id', 'name', 'description', 'created_by', 'created_at', 'contact_count', 'updated_at'],
  AccountDto: ['id', 'name', 'balance', 'address', 'logo_url', 'country_id', 'created_by', 'created_at'],
};

/** Fields INTERFACE.md types as `string, uuid`, `string, date-time` or `integer`. */
const TYPED_FIELDS: Array<[kind: string, expected: Schema, fields: string[]]> = [
  [
    'uuid',
    { type: 'string', format: 'uuid' },
    [
      'MessageOutDto.company_id', 'MessageOutDto.message_price_id', 'MessageOutDto.sender_id', 'MessageOutDto.contact_id',
      'MessageOutDto.created_by', 'MessageOutDto.campaign_id', 'LotSummaryDto.campaign_id', 'GroupDto.id', 'GroupDto.company_id', 'GroupDto.created_by', 'AccountDto.id',
      'AccountDto.created_by', 'CompanyRefDto.id', 'MessagePriceRefDto.id', 'SenderRefDto.id', 'ContactRefDto.id', 'AuthorRefDto.id',
    ],
  ],
  [
    'date-time',
    { type: 'string', format: 'date-time' },
    ['MessageOutDto.send_at', 'MessageOutDto.done_at', 'LotSummaryDto.created_at', 'GroupDto.created_at', 'AccountDto.created_at'],
  ],
  [
    'integer',
    { type: 'integer' },
    ['OtpSendResultDto.expires_at', 'MessageOutDto.dlr_number_retry', 'AccountDto.country_id', 'LotSummaryDto.count', 'MessageStatusCountsDto.delivered'],
  ],
];

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;

  const operation = (method: string, path: string) => doc.paths[path]?.[method];
  const jsonSchema = (op: Operation, status: number) => op.responses[status]?.content?.['application/json']?.schema;

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http().get('/docs-json').expect(200)).body;
  });
  afterAll(() => t?.close());

  it('is OpenAPI 3.1 and declares version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it.each(OPERATIONS)('documents %s %s with its responses', (method, path, statuses) => {
    const op = operation(method, path);

    expect(op).toBeDefined();
    expect(Object.keys(op!.responses).map(Number)).toEqual(expect.arrayContaining(statuses));
  });

  it.each(SUCCESS_MESSAGES)('documents the success envelope of %s %s', (method, path, message, data) => {
    const schema = jsonSchema(operation(method, path)!, 200);

    expect(schema?.properties?.message?.example).toBe(message);
    expect(schema?.properties?.status?.example).toBe(200);
    if (data === null) expect(schema?.properties?.data).toBeUndefined();
    else expect(schema?.properties?.data).toEqual({ $ref: `#/components/schemas/${data}` });
  });

  it.each(OPERATIONS)('gives every error response of %s %s an example envelope', (method, path) => {
    const op = operation(method, path)!;
    const errors = Object.keys(op.responses).filter((status) => Number(status) >= 400);

    expect(errors.length).toBeGreaterThan(0);
    for (const status of errors) {
      const schema = jsonSchema(op, Number(status));
      expect({ status, example: schema?.example }).toEqual({
        status,
        example: expect.objectContaining({ status: Number(status), message: expect.any(String) }),
      });
    }
  });

  it.each(ERROR_MESSAGES)('documents the error messages of %s %s', (method, path, messages) => {
    const op = operation(method, path)!;
    const documented = Object.keys(messages).map((status) => [status, (jsonSchema(op, Number(status))?.example as { message?: string })?.message]);

    expect(Object.fromEntries(documented)).toEqual(messages);
  });

  it('documents the errors of the 400, 404 (SMS) and 410 examples', () => {
    const examples = [
      jsonSchema(operation('post', '/v1/otp/send')!, 400)?.example,
      jsonSchema(operation('post', '/v1/otp/verify')!, 400)?.example,
      jsonSchema(operation('post', '/v1/otp/verify')!, 410)?.example,
      jsonSchema(operation('get', '/v1/sms/out/{id}')!, 404)?.example,
    ];

    for (const example of examples) expect(example).toEqual(expect.objectContaining({ errors: expect.arrayContaining([expect.any(String)]) }));
  });

  it('documents the 404 of the group routes without errors', () => {
    for (const method of ['get', 'delete']) {
      expect(jsonSchema(operation(method, '/v1/group/{id}')!, 404)?.example).toEqual({ status: 404, message: 'Groupe non trouvé' });
    }
  });

  it('documents the 402 with data.costs and data.balance', () => {
    const schema = jsonSchema(operation('post', '/v1/otp/send')!, 402);

    expect(schema?.properties?.data?.properties).toEqual({
      costs: expect.objectContaining({ type: 'number' }),
      balance: expect.objectContaining({ type: 'number' }),
    });
  });

  it('declares a JWT bearer scheme and an API key in the Authorization header', () => {
    const schemes = Object.values(doc.components.securitySchemes);

    expect(schemes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
        expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
      ]),
    );
  });

  it("lists both account schemes in the security of every /v1 operation, and the operator key alone under /v1/admin", () => {
    const names = Object.entries(doc.components.securitySchemes);
    const jwt = names.find(([, scheme]) => scheme.type === 'http')![0];
    const apiKey = names.find(([name, scheme]) => scheme.type === 'apiKey' && name !== 'operator-key')![0];
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ operation: `${method} ${path}`, admin: path.startsWith('/v1/admin/'), security: op.security })));

    expect(operations.length).toBeGreaterThanOrEqual(OPERATIONS.length);
    for (const { operation: name, admin, security } of operations) {
      const expected = admin ? [{ 'operator-key': [] }] : expect.arrayContaining([{ [jwt]: [] }, { [apiKey]: [] }]);
      expect({ name, security }).toEqual({ name, security: expected });
    }
  });

  it.each(['/health', '/health/live', '/health/ready'])('leaves %s without security', (path) => {
    expect(operation('get', path)?.security).toEqual([]);
  });

  it('describes SendOtpDto with its required fields, enums and bounds', () => {
    const schema = doc.components.schemas.SendOtpDto;

    expect(schema.required?.sort()).toEqual(['channel', 'message', 'to']);
    expect(Object.keys(schema.properties!).sort()).toEqual(
      ['application_name', 'channel', 'language', 'message', 'otp_expiry', 'otp_length', 'otp_type', 'sender', 'to', 'use_local_number'],
    );
    expect(schema.properties!.channel).toEqual(expect.objectContaining({ type: 'string', enum: ['SMS', 'EMAIL'] }));
    expect(schema.properties!.otp_type).toEqual(expect.objectContaining({ enum: ['numeric', 'alphanumeric'] }));
    expect(schema.properties!.otp_length).toEqual(expect.objectContaining({ type: 'integer', minimum: 4, maximum: 6 }));
    expect(schema.properties!.otp_expiry).toEqual(expect.objectContaining({ type: 'integer', minimum: 60, maximum: 3600 }));
    expect(schema.properties!.use_local_number).toEqual(expect.objectContaining({ type: 'boolean' }));
    expect(schema.properties!.language).toEqual(expect.objectContaining({ enum: ['fr', 'en', 'es', 'pt'] }));
  });

  it('describes VerifyOtpDto with to and code required', () => {
    const schema = doc.components.schemas.VerifyOtpDto;

    expect(schema.required?.sort()).toEqual(['code', 'to']);
    expect(schema.properties).toEqual({
      to: expect.objectContaining({ type: 'string' }),
      code: expect.objectContaining({ type: 'string' }),
    });
  });

  it.each(Object.entries(RESOURCE_FIELDS))('describes %s with every field of the interface, all required', (name, fields) => {
    const schema = doc.components.schemas[name];

    expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...fields].sort());
    expect([...(schema.required ?? [])].sort()).toEqual([...fields].sort());
  });

  it('describes the enums of OtpVerificationDto and MessageOutDto', () => {
    const { OtpVerificationDto, MessageOutDto } = doc.components.schemas;

    expect(OtpVerificationDto.properties!.channel.enum).toEqual(['sms', 'email']);
    expect(MessageOutDto.properties!.status.enum).toEqual(['scheduled', 'pending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled']);
    expect(MessageOutDto.properties!.source.enum).toEqual(['api', 'campaign', 'reply']);
    expect(MessageOutDto.properties!.message_encoding.enum).toEqual(['GSM7', 'UCS2']);
    expect(MessageOutDto.properties!.type.enum).toEqual(['otp', 'sms']);
  });

  it('describes the number fields as numbers and page as a string', () => {
    const { MessageOutDto, AccountDto, MessagePriceRefDto } = doc.components.schemas;

    expect(MessageOutDto.properties!.amount.type).toBe('number');
    expect(MessageOutDto.properties!.page.type).toBe('string');
    expect(MessageOutDto.properties!.retrieve.type).toBe('boolean');
    expect(AccountDto.properties!.balance.type).toBe('number');
    expect(MessagePriceRefDto.properties!.amount.type).toBe('number');
  });

  it('describes the related objects of MessageOutDto, the author without phone', () => {
    const { schemas } = doc.components;
    const fieldsOf = (name: string) => Object.keys(schemas[name].properties ?? {}).sort();

    expect(fieldsOf('CompanyRefDto')).toEqual(['email', 'id', 'name', 'phone']);
    expect(fieldsOf('MessagePriceRefDto')).toEqual(['amount', 'description', 'id']);
    expect(fieldsOf('SenderRefDto')).toEqual(['email', 'id', 'name', 'phone']);
    expect(fieldsOf('ContactRefDto')).toEqual(['email', 'id', 'name', 'phone']);
    expect(fieldsOf('AuthorRefDto')).toEqual(['email', 'id', 'name']);
  });

  it('says null where a field can be null, in the OpenAPI 3.1 way', () => {
    const { MessageOutDto } = doc.components.schemas;

    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    for (const [field, target] of [['contact', 'ContactRefDto'], ['sender', 'SenderRefDto'], ['message_price', 'MessagePriceRefDto'], ['author', 'AuthorRefDto']]) {
      expect(MessageOutDto.properties![field].anyOf).toEqual([{ $ref: `#/components/schemas/${target}` }, { type: 'null' }]);
    }
    expect(MessageOutDto.properties!.contact_id.type).toEqual(['string', 'null']);
  });

  it.each(TYPED_FIELDS)('types the %s fields as the interface does', (_, expected, fields) => {
    const mistyped = fields.filter((field) => {
      const [schema, property] = field.split('.');
      const { type, ...actual } = doc.components.schemas[schema].properties![property];
      const typed = { ...actual, type: Array.isArray(type) ? type.find((name) => name !== 'null') : type };
      return Object.entries(expected).some(([key, value]) => typed[key as keyof Schema] !== value);
    });

    expect(mistyped).toEqual([]);
  });

  it('serves Swagger UI as HTML at /docs', async () => {
    const res = await t.http().get('/docs');

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger-ui');
    expect(res.text).toContain('Messaging and OTP API');
  });
});
