import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { Messages } from './messages.js';

/** What a rule states in the OpenAPI schema of the property it checks (`pattern`, `minItems`, `enum`…). */
export type StatedSchema = Omit<ApiPropertyOptions, 'required' | 'nullable' | 'type' | 'isArray' | 'name'>;

/**
 * A class-validator decorator from a synchronous check and its French
 * message, which also writes `schema` into the property's OpenAPI schema, so
 * that what the check enforces and what the document says come from one place.
 */
/**
 * A list of `min` to `max` texts, the first item that is not one reported by
 * its index: `to[1]: doit être une chaîne de caractères`.
 */
export const textList = (name: string, min: number, max: number, size: string) =>
  rule(
    name,
    (value) => Array.isArray(value) && value.length >= min && value.length <= max && value.every((item) => typeof item === 'string'),
    ({ value }) => {
      const index = Array.isArray(value) && value.length >= min && value.length <= max ? value.findIndex((item) => typeof item !== 'string') : -1;
      return index < 0 ? size : Messages.item(index, Messages.string);
    },
    { minItems: min, maxItems: max, items: { type: 'string' } },
  );

export function rule(
  name: string,
  validate: (value: unknown, args: ValidationArguments) => boolean,
  message: (args: ValidationArguments) => string,
  schema?: StatedSchema,
) {
  return (options?: ValidationOptions) => (target: object, propertyName: string) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate },
    });
    if (schema) ApiProperty(schema as ApiPropertyOptions)(target, propertyName);
  };
}
