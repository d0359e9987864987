import { ApiResponse } from '@nestjs/swagger';
import { errorEnvelopeSchema, type ErrorSchemaOptions } from './envelope.schema.js';

/** Documents one error answer of a route with its envelope and an example. */
export const ApiFailure = (status: number, message: string, description: string, options: ErrorSchemaOptions = {}) =>
  ApiResponse({ status, description, schema: errorEnvelopeSchema(status, message, options) });

/** The 402 of a debiting route: `data` holds what it would cost and the balance. */
export const ApiInsufficientBalance = (description: string, example: { costs: number; balance: number }) =>
  ApiFailure(402, 'solde_insuffisant', description, {
    data: {
      type: 'object',
      required: ['costs', 'balance'],
      properties: { costs: { type: 'number', example: example.costs }, balance: { type: 'number', example: example.balance } },
      example,
    },
  });
