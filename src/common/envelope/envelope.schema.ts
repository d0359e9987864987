import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

export interface ErrorSchemaOptions {
  errors?: string[];
  data?: SchemaObject;
}

/** OpenAPI schema of a success envelope, with `data` when the route returns some. */
export function successEnvelopeSchema(status: number, message: string, data?: SchemaObject | ReferenceObject): SchemaObject {
  return {
    type: 'object',
    required: data ? ['status', 'message', 'data'] : ['status', 'message'],
    properties: {
      status: { type: 'integer', enum: [status], example: status },
      message: { type: 'string', example: message },
      ...(data ? { data } : {}),
    },
  };
}

/** OpenAPI schema of an error envelope, with its example. */
export function errorEnvelopeSchema(status: number, message: string, options: ErrorSchemaOptions = {}): SchemaObject {
  const required = ['status', 'message'];
  const properties: Record<string, SchemaObject> = {
    status: { type: 'integer', enum: [status], example: status },
    message: { type: 'string', example: message },
  };
  if (options.errors) {
    required.push('errors');
    properties.errors = { type: 'array', items: { type: 'string' }, example: options.errors };
  }
  if (options.data) {
    required.push('data');
    properties.data = options.data;
  }
  const example: Record<string, unknown> = { status, message };
  if (options.errors) example.errors = options.errors;
  if (options.data?.example !== undefined) example.data = options.data.example;
  return { type: 'object', required, properties, example };
}
