import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsUUID } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { IsZonedDateTime } from '../../common/validation/zoned-date-time.js';
import { IsPhoneCountry, IsTimeZone } from '../../common/validation/shared-rules.js';

export const GRANULARITIES = ['day', 'week', 'month', 'none'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const MESSAGE_TYPES = ['otp', 'sms'] as const;

const UUID_TEXT = 'doit être un identifiant (UUID)';

export class UsageQueryDto {
  @ApiProperty({ type: String, format: 'date-time', example: '2026-03-01T00:00:00Z', description: 'Messages accepted at or after (ISO 8601 with `Z` or an offset)' })
  @IsDefined({ message: Messages.required })
  @IsZonedDateTime()
  created_from!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-04-01T00:00:00Z', description: 'Messages accepted before; at most 366 days after `created_from`' })
  @IsDefined({ message: Messages.required })
  @IsZonedDateTime()
  created_to!: string;

  @ApiPropertyOptional({ enum: GRANULARITIES, default: 'day', description: 'Length of the buckets, in local time; `none` gives the totals only' })
  @IsOptional()
  @IsIn(GRANULARITIES, { message: Messages.oneOf(GRANULARITIES) })
  granularity?: Granularity;

  @ApiPropertyOptional({ default: 'UTC', example: 'Africa/Abidjan', description: 'IANA time zone the buckets are days, weeks (from Monday) or months of' })
  @IsOptional()
  @IsTimeZone()
  timezone?: string;

  @ApiPropertyOptional({ enum: MESSAGE_TYPES })
  @IsOptional()
  @IsIn(MESSAGE_TYPES, { message: Messages.oneOf(MESSAGE_TYPES) })
  type?: (typeof MESSAGE_TYPES)[number];

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: UUID_TEXT })
  sender_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: UUID_TEXT })
  campaign_id?: string;

  @ApiPropertyOptional({ example: 'CI', description: "ISO 3166-1 alpha-2 country of the recipients" })
  @IsOptional()
  @IsPhoneCountry()
  country?: string;
}
