import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';

export const OTP_STATES = ['active', 'verified', 'expired', 'superseded', 'locked'] as const;
export type OtpState = (typeof OTP_STATES)[number];

export const OTP_DELIVERY_STATUSES = ['pending', 'sent', 'delivered', 'undelivered', 'failed'] as const;
export type OtpDeliveryStatus = (typeof OTP_DELIVERY_STATUSES)[number];

export const OTP_CHANNELS = ['sms', 'email'] as const;

/** An OTP as it stands: never its code. */
export class OtpStatusDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  uniq_id!: string;
  /** E.164, or a lower-case e-mail address @example "+2250707070707" */
  to!: string;
  @ApiProperty({ enum: OTP_CHANNELS, example: 'sms' })
  channel!: string;
  @ApiProperty({
    enum: OTP_STATES,
    example: 'active',
    description:
      '`active`: it can still be verified; `verified`: it was; `expired`: its lifetime has passed; `superseded`: a newer code was sent to the ' +
      'same recipient; `locked`: too many wrong codes (`OTP_MAX_ATTEMPTS`) were tried',
  })
  state!: OtpState;
  @ApiProperty({
    enum: OTP_DELIVERY_STATUSES,
    example: 'delivered',
    description:
      'Where its message is: `pending` (not yet handed over), `sent`, `delivered` or `undelivered` (by a delivery receipt; SMS only), ' +
      '`failed` (could not be handed over, refunded). For an SMS, the `status` of its SMS record',
  })
  delivery_status!: OtpDeliveryStatus;
  /** Wrong codes tried @example 0 */
  @Integer()
  attempts!: number;
  /** @example "MonApp" */
  application_name!: string | null;
  /** When the send was accepted @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  send_at!: string;
  /** @example "2026-11-22T08:05:00.000Z" */
  @DateTime()
  expires_at!: string;
  /** @example null */
  @DateTime(true)
  verified_at!: string | null;
  /** The SMS record (`GET /v1/sms/out/{id}`) of an SMS OTP; null for an e-mail OTP @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid(true)
  sms_uniq_id!: string | null;
}

export class OtpQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ example: '+2250707070707', description: 'The recipient: a phone number in international form, or an e-mail address' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(254, { message: Messages.maxLength(254) })
  to?: string;

  @ApiPropertyOptional({ enum: OTP_STATES })
  @IsOptional()
  @IsIn(OTP_STATES, { message: Messages.oneOf(OTP_STATES) })
  state?: OtpState;

  @ApiPropertyOptional({ enum: OTP_CHANNELS })
  @IsOptional()
  @IsIn(OTP_CHANNELS, { message: Messages.oneOf(OTP_CHANNELS) })
  channel?: (typeof OTP_CHANNELS)[number];
}
