import { applyDecorators } from '@nestjs/common';
import { ApiInternalServerErrorResponse } from '@nestjs/swagger';
import { errorEnvelopeSchema } from '../envelope/envelope.schema.js';
import { AddRouteConfig } from '../http/route-config.js';

export const DEFAULT_INTERNAL_ERROR_MESSAGE = 'erreur_interne';

export interface ErrorRouteConfig {
  internalErrorMessage?: string;
}

/** The `message` of this route's 500 answers, and its documentation. */
export const InternalErrorMessage = (message: string) =>
  applyDecorators(
    AddRouteConfig({ internalErrorMessage: message } satisfies ErrorRouteConfig),
    ApiInternalServerErrorResponse({
      description: 'Unexpected failure; the body carries no internals.',
      schema: errorEnvelopeSchema(500, message),
    }),
  );
