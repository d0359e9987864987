import { applyDecorators, HttpCode, SetMetadata, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { successEnvelopeSchema } from './envelope.schema.js';

export const ENVELOPE_METADATA = 'envelope:success';

export interface SuccessEnvelope {
  status: number;
  message: string;
}

/**
 * The status and `message` of a route's success envelope, and its OpenAPI
 * response, in one place so that behaviour and documentation cannot drift.
 */
export function RespondWith(status: number, message: string, dataType?: Type<unknown>, description?: string) {
  const decorators = [
    HttpCode(status),
    SetMetadata(ENVELOPE_METADATA, { status, message } satisfies SuccessEnvelope),
    ApiResponse({
      status,
      description: description ?? message,
      schema: successEnvelopeSchema(status, message, dataType ? { $ref: getSchemaPath(dataType) } : undefined),
    }),
  ];
  if (dataType) decorators.push(ApiExtraModels(dataType));
  return applyDecorators(...decorators);
}
