import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { fingerprintOf, uploadFingerprintOf } from './fingerprint.js';
import type { IdempotentRequest } from './idempotency.service.js';

const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Printable ASCII; no space at either end, which HTTP would strip from a header value. */
const KEY_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,253}[\x21-\x7E])?$/;

/**
 * The request's `Idempotency-Key` with the fingerprint of its route and its
 * body as it came (unknown fields included; an uploaded file with the query), for Idempotency;
 * undefined when it has none, 400 when the key is malformed.
 */
export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext): IdempotentRequest | undefined => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw ApiError.invalidField('Idempotency-Key', 'doit faire de 1 à 255 caractères ASCII imprimables');
  }
  const body = request.body;
  const route = `${request.method} ${request.url.split('?', 1)[0]}`;
  return { key, fingerprint: Buffer.isBuffer(body) ? uploadFingerprintOf(route, request.query, body) : fingerprintOf(route, body) };
});

/** Documents `Idempotency-Key` on a route, with its 409 and 422 answers. */
export const ApiIdempotencyKey = () =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_PATTERN.source },
      description:
        'Up to 255 printable ASCII characters, unique per operation. A retry with the same key and the same body within 24 h ' +
        'replays the first answer (200, 400 or 402) without acting again.',
    }),
    ApiFailure(409, 'requete_en_cours', 'A request with the same Idempotency-Key is still running', {
      errors: ['Idempotency-Key: une requête avec cette clé est en cours'],
    }),
    ApiFailure(422, 'cle_idempotence_reutilisee', 'The Idempotency-Key was used for another request: another route, or another body', {
      errors: ['Idempotency-Key: déjà utilisée pour une autre requête (route ou corps)'],
    }),
  );
