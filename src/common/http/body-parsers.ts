import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonShapeProblem } from './json-shape.js';
import { AddRouteConfig } from './route-config.js';

/** The body limits routes may ask for beside the default one. */
export interface BodyLimits {
  default: number;
  /** Bulk routes (`BULK_BODY_LIMIT_BYTES`). */
  bulk: number;
  /** CSV files (`CONTACT_IMPORT_MAX_BYTES`), see CsvBody. */
  csv: number;
}

/** A route whose body may be larger than the default limit. */
export const BodyLimit = (kind: Exclude<keyof BodyLimits, 'default'>) => AddRouteConfig({ bodyLimit: kind });

export const JSON_TYPE = 'application/json';

/** What a body route receives when the body could not be read as it expects; answered after authentication. */
export class UnreadableBody {
  constructor(readonly reason: 'invalid-json' | 'too-deep' | 'not-utf8' | 'unsupported-media-type') {}
}

/**
 * JSON only (and CSV files on the routes that take one, see registerCsvBody).
 * A body whose bytes are not UTF-8, a malformed JSON body (also one nested
 * too deep, or with text that is not well-formed Unicode) or another content
 * type is not refused while parsing but handed on as an UnreadableBody, so that
 * authentication is checked first and the validation pipe answers 400 or 415.
 * An empty body, of any type, is no body (an action sent without `-d`). The
 * size limit is enforced while reading (413), before anything else;
 * `@BodyLimit` raises it for one route.
 */
export function registerBodyParsers(fastify: FastifyInstance, limits: BodyLimits): void {
  const bodyLimit = limits.default;
  fastify.addHook('onRoute', (route) => {
    const kind = (route.config as { bodyLimit?: Exclude<keyof BodyLimits, 'default'> } | undefined)?.bodyLimit;
    if (kind !== undefined) route.bodyLimit = limits[kind];
  });
  const parseJson = fastify.getDefaultJsonParser('remove', 'remove');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer', bodyLimit }, (request: FastifyRequest, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    if (!isUtf8(bytes)) return done(null, new UnreadableBody('not-utf8'));
    parseJson(request, bytes.toString('utf8'), (error: Error | null, value?: unknown) => {
      if (error) return done(null, new UnreadableBody('invalid-json'));
      const problem = jsonShapeProblem(value);
      if (problem === 'too-deep') return done(null, new UnreadableBody('too-deep'));
      if (problem === 'ill-formed-text') return done(null, new UnreadableBody('invalid-json'));
      return done(null, value);
    });
  });
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, (body as Buffer).length === 0 ? undefined : new UnreadableBody('unsupported-media-type')),
  );
}
