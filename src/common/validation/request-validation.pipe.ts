import { Injectable, type ArgumentMetadata, type PipeTransform, type Type, type ValidationError } from '@nestjs/common';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { JSON_TYPE, UnreadableBody } from '../http/body-parsers.js';
import { atLeastOneOfProblem } from './at-least-one-of.js';
import { declaredProperties } from './declared-properties.js';
import { Messages } from './messages.js';
import { keepRuleLookups } from './rule-lookups.js';

keepRuleLookups();

const VALIDATOR_OPTIONS: ValidatorOptions = {
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
};

/** Keys that would reach an object's prototype if copied onto it. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates bodies, and query strings declared as a DTO class (whose values
 * are text, see ListQueryDto), against their DTO class: strict JSON types (no
 * conversion), a field the DTO does not declare refused (`<path>: champ
 * inconnu`, into nested DTOs too), `null` refused where the DTO does not
 * declare it nullable, and one `<field>: <text>` per invalid field, its first
 * failure. A body that could not be read is answered here, after
 * authentication; a DTO without a required field also takes no body at all
 * (an action). The DTOs are flat for class-validator (nested DTOs are checked
 * by the code that reads them), so a DTO is filled by copying the body's
 * fields rather than through class-transformer, and every rule is synchronous.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if ((metadata.type !== 'body' && metadata.type !== 'query') || !isDtoClass(metadata.metatype)) return value;
    if (value instanceof UnreadableBody) throw unreadable(value);
    if (value === undefined && !hasRequiredField(metadata.metatype)) value = {};
    if (!isPlainObject(value)) throw ApiError.validation([Messages.bodyNotObject]);

    const { dto, errors } = validateAs(metadata.metatype, value);
    if (errors.length > 0) throw ApiError.validation(errors);
    return dto;
  }
}

/**
 * `value` (a parsed JSON object) copied onto a new `type` and checked, with one
 * `<prefix><field>: <text>` per invalid field: the DTO's rules first, then
 * what it does not declare (unknown fields, nulls) in fields without another
 * problem. Nested objects and list items are checked the same way by the code
 * that reads them, with a prefix such as `contacts[3].`, since the pipe copies
 * only the top level.
 */
export function validateAs<T>(type: Type<T>, value: Record<string, unknown>, prefix = ''): { dto: T; errors: string[] } {
  const dto = new type() as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!PROTOTYPE_KEYS.has(key) && value[key] !== undefined) dto[key] = value[key];
  }
  const problems = new Map(validateSync(dto, VALIDATOR_OPTIONS).map((error) => [error.property, firstProblem(error)]));
  const declared = declaredProperties(type);
  // null in an optional field that is not nullable is reported as such, whatever its rules would say of it
  const nulled = (field: string) => value[field] === null && declared.get(field)?.required === false && !declared.get(field)?.nullable;
  const undeclared = undeclaredProblems(type, value, '').filter(([field]) => !problems.has(field) || nulled(field));
  const missing = atLeastOneOfProblem(type, value);
  const errors = [
    ...(missing === undefined ? [] : [missing]),
    // an item's problem (Messages.item) already names its index
    ...[...problems].filter(([field]) => !nulled(field)).map(([field, problem]) => (problem.startsWith('[') ? `${field}${problem}` : `${field}: ${problem}`)),
    ...undeclared.map(([, problem]) => problem),
  ].map((error) => prefix + error);
  return { dto: dto as T, errors };
}

/**
 * `[field, "<path>: <text>"]` for each field of `value`, and of the nested
 * DTOs in it, that `type` does not declare, or that is null where the DTO does
 * not say nullable.
 */
function undeclaredProblems(type: Type<unknown>, value: Record<string, unknown>, path: string, field?: string): Array<[string, string]> {
  const declared = declaredProperties(type);
  return Object.entries(value).flatMap(([key, child]): Array<[string, string]> => {
    const property = declared.get(key);
    const at = `${path}${shown(key)}`;
    const top = field ?? key;
    if (!property) return [[top, `${at}: ${Messages.unknownField}`]];
    if (child === null) return property.nullable ? [] : [[top, `${at}: ${Messages.notNull}`]];
    const nested = property.nested;
    if (!nested) return [];
    if (!nested.each) return isPlainObject(child) ? undeclaredProblems(nested.type, child, `${at}.`, top) : [];
    if (!Array.isArray(child)) return [];
    return child.flatMap((item, index) => (isPlainObject(item) ? undeclaredProblems(nested.type, item, `${at}[${index}].`, top) : []));
  });
}

/** A key as an error names it: an unknown one may be anything, up to the body limit. */
const shown = (key: string): string => (key.length > 64 ? `${key.slice(0, 64)}…` : key);

const hasRequiredField = (type: Type<unknown>): boolean => [...declaredProperties(type).values()].some((property) => property.required);

const NATIVE_TYPES = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

const isDtoClass = (metatype: Type<unknown> | undefined): metatype is Type<unknown> =>
  metatype !== undefined && !NATIVE_TYPES.has(metatype);

function unreadable(body: UnreadableBody): ApiError {
  if (body.reason === 'unsupported-media-type') return ApiError.unsupportedMediaType([JSON_TYPE]);
  return ApiError.validation([UNREADABLE[body.reason]]);
}

const UNREADABLE = { 'invalid-json': Messages.invalidJson, 'too-deep': Messages.tooDeep, 'not-utf8': Messages.notUtf8 } as const;

/**
 * class-validator runs a property's decorators bottom-up, so the last failed
 * constraint is the one written first; a missing value reports only that.
 */
function firstProblem(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const texts = Object.values(constraints);
  return constraints.isDefined ?? texts[texts.length - 1] ?? 'invalide';
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
