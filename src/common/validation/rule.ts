import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** A class-validator decorator from a synchronous check and its French message. */
export function rule(name: string, validate: (value: unknown, args: ValidationArguments) => boolean, message: (args: ValidationArguments) => string) {
  return (options?: ValidationOptions) => (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate },
    });
}
