import { ApiResponse } from '@nestjs/swagger';
import { errorEnvelopeSchema, type ErrorSchemaOptions } from './envelope.schema.js';

/** Documents one error answer of a route with its envelope and an example. */
export const ApiFailure = (status: number, message: string, description: string, options: ErrorSchemaOptions = {}) =>
  ApiResponse({ status, description, schema: errorEnvelopeSchema(status, message, options) });
