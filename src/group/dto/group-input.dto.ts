import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsNotBlank } from '../../common/validation/shared-rules.js';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { AtLeastOneOf } from '../../common/validation/at-least-one-of.js';
import { Messages } from '../../common/validation/messages.js';

export class CreateGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Clients VIP', description: 'Unique in the account, case ignored' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @IsNotBlank()
  @MaxLength(100, { message: Messages.maxLength(100) })
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Clients à relancer chaque mois' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(500, { message: Messages.maxLength(500) })
  description?: string | null;
}

/** Either field or both; at least one. */
@AtLeastOneOf(['name', 'description'], 'body: au moins un champ attendu (name, description)')
export class UpdateGroupDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Clients VIP 2027' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsNotBlank()
  @MaxLength(100, { message: Messages.maxLength(100) })
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: null })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(500, { message: Messages.maxLength(500) })
  description?: string | null;
}

export class GroupQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'client', description: 'Start of the name, case ignored' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(100, { message: Messages.maxLength(100) })
  q?: string;
}
