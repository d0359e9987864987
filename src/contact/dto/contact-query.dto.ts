import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { Messages } from '../../common/validation/messages.js';

export const BOOLEAN_TEXTS = ['true', 'false'] as const;

export class ContactQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 100, example: 'awa', description: 'Prefix of the name or e-mail (case and accents ignored), or of the phone digits' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MinLength(2, { message: 'doit faire au moins 2 caractères' })
  @MaxLength(100, { message: Messages.maxLength(100) })
  q?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Members of this group only' })
  @IsOptional()
  @IsUUID('all', { message: 'doit être un identifiant (UUID)' })
  group_id?: string;

  @ApiPropertyOptional({ enum: BOOLEAN_TEXTS, description: 'Only the contacts on (true) or off (false) the opt-out list' })
  @IsOptional()
  @IsIn(BOOLEAN_TEXTS, { message: Messages.oneOf(BOOLEAN_TEXTS) })
  opted_out?: (typeof BOOLEAN_TEXTS)[number];
}
