import { applyDecorators, createParamDecorator, UseInterceptors, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { IdempotencyInterceptor, type IdempotentRequest } from './idempotency.interceptor.js';
import type { IdempotencyScope } from './idempotency-scope.js';

/** Makes a route honour `Idempotency-Key`, and documents it. */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 printable ASCII characters, unique per operation. A retry with the same key and the same body within 24 h ' +
        'replays the first answer (200, 400 or 402) without acting again.',
    }),
    ApiFailure(409, 'requete_en_cours', 'A request with the same Idempotency-Key is still running', {
      errors: ['Idempotency-Key: une requête avec cette clé est en cours'],
    }),
    ApiFailure(422, 'cle_idempotence_reutilisee', 'The Idempotency-Key was used with another body', {
      errors: ['Idempotency-Key: déjà utilisée avec un autre corps de requête'],
    }),
  );

/** The route's Idempotency-Key claim, or undefined when the request has none. */
export const CurrentIdempotency = createParamDecorator(
  (_: unknown, context: ExecutionContext): IdempotencyScope | undefined =>
    context.switchToHttp().getRequest<IdempotentRequest>().idempotency,
);
