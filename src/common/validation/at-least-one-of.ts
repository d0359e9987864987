import type { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { declaredProperties } from './declared-properties.js';

const AT_LEAST_ONE_OF = 'validation:atLeastOneOf';

interface AtLeastOneOfRule {
  fields: readonly string[];
  /** The whole error, `<field>: <text>`. */
  error: string;
}

/**
 * A body must give at least one of `fields` (a PATCH at least one field, a
 * send at least one kind of recipient). The validation pipe checks it, and the
 * class's schema states it: `minProperties: 1` when `fields` are all of the
 * DTO's properties (its schema admits no others), else `anyOf` one of them required.
 */
export const AtLeastOneOf =
  (fields: readonly string[], error: string): ClassDecorator =>
  (target) => {
    Reflect.defineMetadata(AT_LEAST_ONE_OF, { fields, error } satisfies AtLeastOneOfRule, target);
    const schemas = (Reflect.getOwnMetadata(DECORATORS.API_SCHEMA, target) ?? []) as object[];
    const everyField = [...declaredProperties(target as unknown as Type<unknown>).keys()].every((name) => fields.includes(name));
    const stated = everyField ? { minProperties: 1 } : { anyOf: fields.map((field) => ({ required: [field] })) };
    Reflect.defineMetadata(DECORATORS.API_SCHEMA, [...schemas, stated], target);
  };

/** The error of `body` against the class's AtLeastOneOf, if any. */
export function atLeastOneOfProblem(type: Type<unknown>, body: Readonly<Record<string, unknown>>): string | undefined {
  const rule = Reflect.getOwnMetadata(AT_LEAST_ONE_OF, type) as AtLeastOneOfRule | undefined;
  if (!rule || rule.fields.some((field) => body[field] !== undefined)) return undefined;
  return rule.error;
}
