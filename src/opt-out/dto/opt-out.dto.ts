import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional } from 'class-validator';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { IsPhoneCountry, IsTextList } from '../../common/validation/shared-rules.js';
import { OPT_OUT_SOURCES, type OptOutSource } from '../opt-out.repository.js';

export const MAX_OPT_OUTS_PER_CALL = 1000;

export class AddOptOutsDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_OPT_OUTS_PER_CALL,
    example: ['+2250707070707', '+221771234567'],
    description: 'Numbers in international form, or national with `default_country`; one given twice counts once',
  })
  @IsDefined({ message: Messages.required })
  @IsTextList(MAX_OPT_OUTS_PER_CALL)
  phones!: string[];

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which national numbers are read' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;
}

/** What `POST /opt-out` did. */
export class AddOptOutsResultDto {
  /** Numbers put on the list @example 1 */
  added!: number;
  /** Numbers that were on it already @example 1 */
  already!: number;
}

export class OptOutQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ enum: OPT_OUT_SOURCES, description: 'Entries from this source only' })
  @IsOptional()
  @IsIn(OPT_OUT_SOURCES, { message: Messages.oneOf(OPT_OUT_SOURCES) })
  source?: OptOutSource;
}

/** A number on the account's opt-out list: it gets no ordinary SMS (OTPs are exempt by default). */
export class OptOutDto {
  /** @example "0193a3c2-b4c5-7d6e-8f90-1a2b3c4d5e6f" */
  @Uuid()
  id!: string;
  /** E.164 @example "+2250707070707" */
  phone!: string;
  @ApiProperty({
    enum: OPT_OUT_SOURCES,
    example: 'api',
    description: '`sms_keyword` (STOP) and `link` entries can be undone only by their recipient; `api`, `import` and `admin` entries by `DELETE /v1/opt-out/{phone}`',
  })
  source!: OptOutSource;
  /** The keyword the recipient texted, for `sms_keyword` @example null */
  keyword!: string | null;
  /** The sender the keyword was texted to, for `sms_keyword` @example null */
  @Uuid(true)
  sender_id!: string | null;
  /** The user who listed the number; null for the recipient's own requests and the command line @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
}
