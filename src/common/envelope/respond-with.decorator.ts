import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';
import { AddRouteConfig } from '../http/route-config.js';
import { successEnvelopeSchema } from './envelope.schema.js';

export interface SuccessEnvelope {
  status: number;
  message: string;
}

/** What `@RespondWith` leaves in the route's Fastify config, for EnvelopingFastifyAdapter. */
export interface EnvelopeRouteConfig {
  envelope?: SuccessEnvelope;
}

/**
 * The status and `message` of a route's success envelope, and its OpenAPI
 * response, in one place so that behaviour and documentation cannot drift.
 */
export function RespondWith(status: number, message: string, dataType?: Type<unknown>, description?: string) {
  return respondWithSchema(status, message, dataType && { $ref: getSchemaPath(dataType) }, dataType ? [dataType] : [], description);
}

/** `@RespondWith` for a `data` described by a schema, with the models it refers to. */
export function respondWithSchema(
  status: number,
  message: string,
  data: SchemaObject | ReferenceObject | undefined,
  models: Array<Type<unknown>>,
  description?: string,
) {
  return applyDecorators(
    HttpCode(status),
    AddRouteConfig({ envelope: { status, message } } satisfies EnvelopeRouteConfig),
    ApiResponse({ status, description: description ?? message, schema: successEnvelopeSchema(status, message, data) }),
    ...(models.length > 0 ? [ApiExtraModels(...models)] : []),
  );
}
