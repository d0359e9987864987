import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { rule } from '../validation/rule.js';
import { IsZonedDateTime } from '../validation/zoned-date-time.js';
import { Messages } from '../validation/messages.js';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

const INTEGER_TEXT = /^\d{1,9}$/;

/** A query parameter holding an integer within bounds (query values arrive as text). */
export const IsIntegerText = (min: number, max: number) =>
  rule(
    'isIntegerText',
    (value) => typeof value === 'string' && INTEGER_TEXT.test(value) && Number(value) >= min && Number(value) <= max,
    () => `doit être un entier compris entre ${min} et ${max}`,
  )();

/** `limit` and `cursor`, which every list route takes (the list convention). */
export class ListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Items per page' })
  @IsOptional()
  @IsIntegerText(1, MAX_LIMIT)
  limit?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'The `next_cursor` of the previous page, asked with the same filters',
    example: 'eyJpZCI6IjAxOTNhM2MyLTlkM2EtN2U1Yy1iMTJhLTRkOGIzZTFmNmEyMCIsImYiOiJxTGc2Y3Y4bmJ4RSJ9',
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(512, { message: 'curseur invalide' })
  cursor?: string;
}

/** The list convention with the creation-date filters: `created_from` included, `created_to` excluded. */
export class CreatedRangeQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Created at or after (ISO 8601 with `Z` or an offset)' })
  @IsOptional()
  @IsZonedDateTime()
  created_from?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Created before (ISO 8601 with `Z` or an offset)' })
  @IsOptional()
  @IsZonedDateTime()
  created_to?: string;
}
