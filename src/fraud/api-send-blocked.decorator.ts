import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { SendBlockedDto } from './dto/fraud-attempt.dto.js';

/** The 403 `envoi_bloque` of a send the fraud guard refuses, with its `data`. */
export const ApiSendBlocked = () =>
  applyDecorators(
    ApiExtraModels(SendBlockedDto),
    ApiFailure(403, 'envoi_bloque', 'The fraud guard refused the send: one text per reason; `Retry-After` when every reason is a temporary block', {
      errors: ["to: préfixe +99899394 bloqué temporairement (trop d'envois)"],
      data: {
        allOf: [{ $ref: getSchemaPath(SendBlockedDto) }],
        example: { attempt_id: '0193a3c2-d4e5-7f60-8a1b-2c3d4e5f6a7b', reasons: ['prefix_velocity'], blocked_until: '2026-11-22T09:00:00.000Z' },
      },
    }),
  );
