import { Injectable, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { UnreadableBody } from '../http/body-parsers.js';
import { Messages } from './messages.js';

/**
 * Validates bodies against their DTO: strict JSON types (no conversion),
 * unknown fields dropped, and one `<field>: <text>` per invalid field, its first failure.
 * A body that could not be read is answered here, after authentication.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => ApiError.validation(errors.map(firstProblem)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      if (value instanceof UnreadableBody) throw unreadable(value);
      if (!isPlainObject(value)) throw ApiError.validation([Messages.bodyNotObject]);
    }
    return super.transform(value, metadata);
  }

  /** Every rule of the DTOs is synchronous: validating them without a promise per rule costs less. */
  protected override validate(object: object, validatorOptions?: ValidatorOptions): ValidationError[] {
    return validateSync(object, validatorOptions);
  }
}

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

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
