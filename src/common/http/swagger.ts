import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type RequestBodyObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { errorEnvelopeSchema } from '../envelope/envelope.schema.js';
import { ACCOUNT_CREDENTIAL_REQUIRED, isAdminRoute, OPERATOR_KEY_REQUIRED } from './admin-routes.js';
import { JSON_TYPE } from './body-parsers.js';

const DESCRIPTION = `
Send one-time passwords by SMS or e-mail and check them, read outgoing SMS, groups and the account.

Every response is an envelope \`{status, message, data?, errors?}\` whose \`status\` repeats the HTTP status.
Authenticate with \`Authorization: Bearer <token>\`, where the token is an API key (\`mk_live_…\`, or \`mk_test_…\` for the sandbox) or a JWT.

Bodies are strict: a field a schema does not list, or \`null\` where it does not say nullable, is \`400 erreur_de_validation\`
(\`<field>: champ inconnu\`), and so is a body that is not UTF-8 (\`body: texte non UTF-8\`). Actions (\`…/launch\`, \`…/cancel\`…)
take no body, an empty one or \`{}\`. A path served with other methods answers \`405 methode_non_autorisee\` with an \`Allow\`
header (after authentication); a path the API does not have, \`404 Non trouvé\`.

The routes under \`/v1/admin\` (tag Admin) are the platform operator's: they take an operator key (\`mk_op_…\`) and nothing else,
and an operator key opens nothing else.
`.trim();

/** Serves the OpenAPI 3.1 document at /docs-json and Swagger UI at /docs. */
/** `extraModels`: schemas no route names, such as the bodies of webhook events. */
export function setupSwagger(app: NestFastifyApplication, extraModels: Type[]): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Messaging and OTP API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT (HS256)' }, 'jwt')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An API key, sent as `Bearer mk_live_…`' },
      'api-key',
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An operator key, sent as `Bearer mk_op_…`: `/v1/admin` only' },
      'operator-key',
    )
    .build();
  const document = secureByDefault(stateStrictBodies(SwaggerModule.createDocument(app, config, { extraModels })));
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
    customSiteTitle: 'Messaging and OTP API',
  });
  return document;
}

/**
 * The guard protects every route that is not @Public(); the document says so:
 * each such operation gets its security schemes (an operator key under
 * `/v1/admin`, an account's JWT or API key elsewhere) and the 401, 403 (the
 * other kind of credential), 429 (the credential's rate limit) and 503
 * answers, each operation with a body the 400 (when it documents none of its
 * own), 413 and 415 answers, and every operation the 500 of an unexpected failure.
 */
function secureByDefault(document: OpenAPIObject): OpenAPIObject {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const admin = isAdminRoute(path);
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = pathItem[method] as (OperationObject & { 'x-public'?: boolean }) | undefined;
      if (!operation) continue;
      // the plugin documents 201 for each @Post without a literal @HttpCode; @RespondWith sets the real one
      if (operation.responses[200] || operation.responses[202]) delete operation.responses[201];
      addResponse(operation, 500, 'erreur_interne', 'An unexpected failure, logged with the request id');
      if (operation['x-public']) {
        delete operation['x-public'];
        operation.security = [];
        continue;
      }
      operation.security = admin ? [{ 'operator-key': [] }] : [{ jwt: [] }, { 'api-key': [] }];
      addResponse(operation, 401, 'Non autorisé', 'Missing, malformed, expired, revoked or unknown credentials');
      if (admin) addResponse(operation, 403, 'acces_refuse', "An account's credential: this route takes operator keys only", [OPERATOR_KEY_REQUIRED]);
      else addResponse(operation, 403, 'acces_refuse', 'An operator key: it opens `/v1/admin` only', [ACCOUNT_CREDENTIAL_REQUIRED]);
      addResponse(operation, 429, 'trop_de_requetes', 'The credential made too many requests this minute; see `Retry-After`', [
        'requêtes: limite de 600 requêtes par minute atteinte, réessayez dans 12 s',
      ]);
      addResponse(operation, 503, 'service_indisponible', 'The database cannot be reached');
      if (operation.requestBody) {
        addResponse(operation, 400, 'erreur_de_validation', 'A field the body may not have, or a body that is not UTF-8', ['zz: champ inconnu']);
        const types = Object.keys((operation.requestBody as RequestBodyObject).content);
        addResponse(operation, 413, 'requete_trop_volumineuse', 'The body is larger than the limit');
        addResponse(operation, 415, 'type_de_contenu_non_supporte', `The body is not ${types.join(' or ')}`, [`content-type: ${types.join(' ou ')} attendu`]);
      }
    }
  }
  return document;
}

const isCsvUpload = (operation: OperationObject) => 'text/csv' in (operation.requestBody as RequestBodyObject).content;

/**
 * What the validation pipe enforces on every JSON body, stated: a body's
 * schema, and each schema nested in it, admits no other property, and a body
 * that `{}` satisfies may be left out (an action).
 */
function stateStrictBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const closed = new Set<SchemaObject>();
  const resolve = (schema: SchemaObject | ReferenceObject): SchemaObject =>
    '$ref' in schema ? schemas[schema.$ref.slice('#/components/schemas/'.length)] : schema;
  const close = (reference: SchemaObject | ReferenceObject | undefined): void => {
    if (!reference) return;
    const schema = resolve(reference);
    if (closed.has(schema)) return;
    closed.add(schema);
    if (schema.type === 'object' && schema.additionalProperties === undefined) schema.additionalProperties = false;
    const children = [...Object.values(schema.properties ?? {}), schema.items, ...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
    for (const child of children) close(child as SchemaObject | ReferenceObject | undefined);
  };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as OperationObject[]) {
      const body = operation.requestBody as RequestBodyObject | undefined;
      const schema = body?.content[JSON_TYPE]?.schema;
      if (!body || !schema || isCsvUpload(operation)) continue;
      close(schema);
      const resolved = resolve(schema);
      body.required = (resolved.required?.length ?? 0) > 0 || resolved.minProperties !== undefined || resolved.anyOf !== undefined;
    }
  }
  return document;
}

function addResponse(operation: OperationObject, status: number, message: string, description: string, errors?: string[]): void {
  operation.responses[status] ??= { description, content: { [JSON_TYPE]: { schema: errorEnvelopeSchema(status, message, { errors }) } } };
}
