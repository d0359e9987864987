import { Body } from '@nestjs/common';
import { NoFieldsDto } from './no-fields.dto.js';

/**
 * A route whose body, if any, has no fields (an action such as `…/cancel`, or
 * a DELETE): the validation pipe then refuses a field as it refuses an
 * unknown field of any body, and the document shows an optional empty object.
 * The body is declared as one more parameter of the handler, which ignores it.
 */
export const TakesNoBody = (): MethodDecorator => (target, key) => {
  const types = (Reflect.getMetadata('design:paramtypes', target, key) ?? []) as unknown[];
  Reflect.defineMetadata('design:paramtypes', [...types, NoFieldsDto], target, key);
  Body()(target, key, types.length);
};
