import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonShapeProblem } from './json-shape.js';

/** What a body route receives when the body could not be read as JSON; answered after authentication. */
export class UnreadableBody {
  constructor(readonly reason: 'invalid-json' | 'too-deep' | 'unsupported-media-type') {}
}

/**
 * JSON only. A malformed JSON body (also one nested too deep, or with text
 * that is not well-formed Unicode) or another content type is not refused
 * while parsing but handed on as an UnreadableBody, so that authentication is
 * checked first and the validation pipe answers 400 or 415. The size limit is
 * enforced while reading (413), before anything else.
 */
export function registerBodyParsers(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('remove', 'remove');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request: FastifyRequest, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(null, new UnreadableBody('invalid-json'));
      const problem = jsonShapeProblem(value);
      if (problem === 'too-deep') return done(null, new UnreadableBody('too-deep'));
      if (problem === 'ill-formed-text') return done(null, new UnreadableBody('invalid-json'));
      return done(null, value);
    });
  });
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, _body, done) =>
    done(null, new UnreadableBody('unsupported-media-type')),
  );
}
