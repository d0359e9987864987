import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiFailure } from '../envelope/api-failure.decorator.js';
import { ApiError } from '../errors/api-error.js';
import { BodyLimit, JSON_TYPE, UnreadableBody } from './body-parsers.js';
import { AddRouteConfig } from './route-config.js';

const CSV_TYPE = 'text/csv';
const FORM_TYPE = 'multipart/form-data';
export const FILE_PART = 'file';

/**
 * What a `multipart/form-data` upload may hold: the `file` part (at most the
 * `csv` body limit) and up to 20 other fields, ignored, of which 1 KiB each is read.
 */
export const FORM_LIMITS = { files: 1, fields: 20, fieldSize: 1024 } as const;

interface CsvRouteConfig {
  csvBody?: boolean;
}

/**
 * A route whose body is one CSV file, sent as `text/csv` or as the `file` part
 * of a `multipart/form-data` form, of at most the `csv` body limit. Every
 * other route keeps answering 415 to these types.
 */
export const CsvBody = () =>
  applyDecorators(
    BodyLimit('csv'),
    AddRouteConfig({ csvBody: true } satisfies CsvRouteConfig),
    ApiFailure(415, 'type_de_contenu_non_supporte', 'The body is neither text/csv nor multipart/form-data', {
      errors: [`content-type: ${CSV_TYPE} ou ${FORM_TYPE} attendu`],
    }),
  );

/** The OpenAPI `requestBody` of a CsvBody route. */
export const CSV_REQUEST_BODY = {
  required: true,
  content: {
    [CSV_TYPE]: { schema: { type: 'string', example: 'phone;name;email\n+2250707070707;Awa Koné;awa@example.com\n' } },
    [FORM_TYPE]: {
      schema: { type: 'object', required: [FILE_PART], properties: { [FILE_PART]: { type: 'string', format: 'binary', description: 'The CSV file' } } },
    },
  },
};

/**
 * The file of a CsvBody route, as bytes: 415 for another content type, 400
 * when the file is missing or empty. Read after authentication, like bodies.
 */
export const CsvFile = createParamDecorator((_: unknown, context: ExecutionContext): Buffer => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (Buffer.isBuffer(request.body) && request.body.length > 0) return request.body;
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type === CSV_TYPE || type === FORM_TYPE) throw ApiError.invalidField(FILE_PART, 'fichier CSV absent ou vide');
  throw ApiError.unsupportedMediaType(acceptedTypes(request));
});

/**
 * Reads the file of CsvBody routes into `request.body` while the body is
 * read, before routing reaches the guard (as JSON bodies are): `text/csv`
 * whole, a form's `file` part through @fastify/multipart (its other parts
 * are skipped). On other routes both types become an UnreadableBody (415).
 */
export async function registerCsvBody(fastify: FastifyInstance, limits: { default: number; csv: number }): Promise<void> {
  fastify.addContentTypeParser(CSV_TYPE, { parseAs: 'buffer', bodyLimit: limits.default }, (request, body, done) =>
    done(null, acceptsCsv(request) ? body : new UnreadableBody('unsupported-media-type')),
  );
  await fastify.register(fastifyMultipart, { limits: { ...FORM_LIMITS, parts: FORM_LIMITS.files + FORM_LIMITS.fields, fileSize: limits.csv } });
  fastify.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    request.body = acceptsCsv(request) ? await formFile(request, limits.csv) : new UnreadableBody('unsupported-media-type');
  });
}

/** The content types a route takes, as a 415 names them. */
export const acceptedTypes = (request: FastifyRequest): string[] => (acceptsCsv(request) ? [CSV_TYPE, FORM_TYPE] : [JSON_TYPE]);

const acceptsCsv = (request: FastifyRequest): boolean => (request.routeOptions.config as CsvRouteConfig | undefined)?.csvBody === true;

async function formFile(request: FastifyRequest, maxFileBytes: number): Promise<Buffer | undefined> {
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname === FILE_PART && file === undefined) file = await part.toBuffer();
      else part.file.resume();
    }
  } catch (error) {
    throw formProblem((error as { code?: string }).code, maxFileBytes);
  }
  return file;
}

/** The answer to a form @fastify/multipart could not read, naming the limit it went past. */
function formProblem(code: string | undefined, maxFileBytes: number): ApiError {
  if (code === 'FST_REQ_FILE_TOO_LARGE') return ApiError.payloadTooLarge([`${FILE_PART}: ${maxFileBytes} octets au plus (CONTACT_IMPORT_MAX_BYTES)`]);
  if (code === 'FST_FILES_LIMIT') return ApiError.invalidField('body', `formulaire: ${FORM_LIMITS.files} fichier au plus (la partie ${FILE_PART})`);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return ApiError.invalidField('body', `formulaire: ${FORM_LIMITS.fields} champs au plus en plus du fichier`);
  }
  return ApiError.invalidField('body', 'formulaire multipart illisible');
}
