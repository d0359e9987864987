import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { IsPhoneCountry } from '../../common/validation/shared-rules.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';
import { ATTEMPT_MODES, type AttemptMode } from '../fraud-attempt.repository.js';
import { FRAUD_REASONS } from '../fraud-signals.rules.js';

export class AttemptQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ enum: FRAUD_REASONS, description: 'Attempts with this reason among theirs' })
  @IsOptional()
  @IsIn(FRAUD_REASONS, { message: 'raison inconnue (voir la liste des raisons)' })
  reason?: string;

  @ApiPropertyOptional({ enum: ATTEMPT_MODES })
  @IsOptional()
  @IsIn(ATTEMPT_MODES, { message: Messages.oneOf(ATTEMPT_MODES) })
  mode?: AttemptMode;

  @ApiPropertyOptional({ example: 'UZ', description: 'ISO 3166-1 alpha-2 country of the destination' })
  @IsOptional()
  @IsPhoneCountry()
  country?: string;
}

/** A send the guard refused (`blocked`) or let through and recorded (`monitored`); kept 30 days. */
export class FraudAttemptDto {
  /** @example "0193a3c2-d4e5-7f60-8a1b-2c3d4e5f6a7b" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  account_id!: string;
  /** Made with a sandbox key @example false */
  sandbox!: boolean;
  @ApiProperty({ enum: ATTEMPT_MODES, example: 'blocked' })
  mode!: AttemptMode;
  @ApiProperty({
    enum: FRAUD_REASONS,
    isArray: true,
    example: ['prefix_velocity'],
    description: 'The signals that refused the send (`blocked`) or that it was let through with (`monitored`), in the order the guard reads them',
  })
  reasons!: string[];
  @ApiProperty({ enum: ['sms', 'email'], example: 'sms' })
  channel!: 'sms' | 'email';
  /** The recipient, E.164 or an e-mail address @example "+998993941234" */
  to!: string;
  /** ISO-2 country of an SMS destination @example "UZ" */
  country!: string | null;
  /** The number without its last 4 digits @example "+99899394" */
  prefix!: string | null;
  /** @example "203.0.113.7" */
  client_ip!: string | null;
  /** @example "user-8812" */
  user_ref!: string | null;
  /** The OTP a monitored attempt let through (`GET /v1/sms/out/{otp_id}` for an SMS) @example null */
  @Uuid(true)
  otp_id!: string | null;
  /** Until when a blocked send would be refused again (a temporary block); null when waiting does not help @example "2026-11-22T09:00:00.000Z" */
  @DateTime(true)
  blocked_until!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
}

/** `data` of the 403 `envoi_bloque`. */
export class SendBlockedDto {
  /** The attempt recorded (`GET /v1/fraud/attempts`) @example "0193a3c2-d4e5-7f60-8a1b-2c3d4e5f6a7b" */
  @Uuid()
  attempt_id!: string;
  @ApiProperty({ enum: FRAUD_REASONS, isArray: true, example: ['prefix_velocity'] })
  reasons!: string[];
  /** When a temporary block ends (also in `Retry-After`); null when waiting does not help @example "2026-11-22T09:00:00.000Z" */
  @DateTime(true)
  blocked_until!: string | null;
}

/** The body POSTed for an `otp.blocked` event, one per refused send, to the account webhook when it subscribes: `data` is the attempt. */
export class OtpBlockedWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['otp.blocked'], example: 'otp.blocked' })
  type!: 'otp.blocked';
  data!: FraudAttemptDto;
}
