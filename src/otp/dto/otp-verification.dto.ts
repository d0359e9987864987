import { ApiProperty } from '@nestjs/swagger';
import { Uuid } from '../../common/openapi/formats.js';

/** A successful verification. */
export class OtpVerificationDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  uniq_id!: string;
  /** @example "+2250707070707" */
  to!: string;
  @ApiProperty({ enum: ['sms', 'email'], example: 'sms' })
  channel!: string;
  /**
   * UTC, `YYYY-MM-DD HH:MM:SS`.
   * @example "2026-11-22 08:01:12"
   */
  verified_at!: string;
  /**
   * UTC, `YYYY-MM-DD HH:MM:SS`.
   * @example "2026-11-22 08:00:00"
   */
  send_at!: string;
  /** @example "MonApp" */
  application_name!: string | null;
}
