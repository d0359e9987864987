import { Injectable, type ArgumentMetadata, type PipeTransform, type Type, type ValidationError } from '@nestjs/common';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { UnreadableBody } from '../http/body-parsers.js';
import { Messages } from './messages.js';
import { keepRuleLookups } from './rule-lookups.js';

keepRuleLookups();

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
};

/** Keys that would reach an object's prototype if copied onto it. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates bodies, and query strings declared as a DTO class (whose values
 * are text, see ListQueryDto), against their DTO class with class-validator: strict JSON
 * types (no conversion), unknown fields dropped, and one `<field>: <text>`
 * per invalid field, its first failure. A body that could not be read is
 * answered here, after authentication. The DTOs are flat (no nested classes,
 * no conversions), so a DTO is filled by copying the body's fields rather than
 * through class-transformer, and every rule is synchronous.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if ((metadata.type !== 'body' && metadata.type !== 'query') || !isDtoClass(metadata.metatype)) return value;
    if (value instanceof UnreadableBody) throw unreadable(value);
    if (!isPlainObject(value)) throw ApiError.validation([Messages.bodyNotObject]);

    const { dto, errors } = validateAs(metadata.metatype, value);
    if (errors.length > 0) throw ApiError.validation(errors);
    return dto;
  }
}

/**
 * `value` (a parsed JSON object) copied onto a new `type` and checked, with one
 * `<prefix><field>: <text>` per invalid field. Nested objects and list items
 * are checked the same way by the code that reads them, with a prefix such as
 * `contacts[3].`, since the pipe copies only the top level.
 */
export function validateAs<T>(type: Type<T>, value: Record<string, unknown>, prefix = ''): { dto: T; errors: string[] } {
  const dto = new type() as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!PROTOTYPE_KEYS.has(key)) dto[key] = value[key];
  }
  const errors = validateSync(dto, VALIDATOR_OPTIONS).map((error) => `${prefix}${firstProblem(error)}`);
  return { dto: dto as T, errors };
}

const NATIVE_TYPES = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

const isDtoClass = (metatype: Type<unknown> | undefined): metatype is Type<unknown> =>
  metatype !== undefined && !NATIVE_TYPES.has(metatype);

function unreadable(body: UnreadableBody): ApiError {
  if (body.reason === 'unsupported-media-type') return ApiError.unsupportedMediaType();
  return ApiError.validation([body.reason === 'too-deep' ? Messages.tooDeep : Messages.invalidJson]);
}

/**
 * class-validator runs a property's decorators bottom-up, so the last failed
 * constraint is the one written first; a missing value reports only that.
 */
function firstProblem(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const texts = Object.values(constraints);
  const text = constraints.isDefined ?? texts[texts.length - 1] ?? 'invalide';
  return `${error.property}: ${text}`;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
