import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsUUID } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { AttemptQueryDto } from './fraud-attempt.dto.js';
import { BlockQueryDto } from './fraud-block.dto.js';
import { AddListEntryDto, ListEntryQueryDto, SafeListKinds } from './fraud-list.dto.js';

const BOOLEANS = ['true', 'false'] as const;
const UUID_EXPECTED = 'doit être un identifiant (UUID)';

/** Which of an account's settings: production's, or with `sandbox=true` those of its sandbox keys. */
export class AdminModeQueryDto {
  @ApiPropertyOptional({ enum: BOOLEANS, description: "`true`: the settings of the sandbox keys; `false`: production's" })
  @IsOptional()
  @IsIn(BOOLEANS, { message: Messages.oneOf(BOOLEANS) })
  sandbox?: (typeof BOOLEANS)[number];
}

/** Whose settings the operator lists: every account's, in both modes, unless narrowed. */
export class AdminScopeQueryDto extends AdminModeQueryDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01', description: "One account's only" })
  @IsOptional()
  @IsUUID('all', { message: UUID_EXPECTED })
  account_id?: string;
}

export class AdminListEntryQueryDto extends IntersectionType(ListEntryQueryDto, AdminScopeQueryDto) {}

export class AdminBlockQueryDto extends IntersectionType(BlockQueryDto, AdminScopeQueryDto) {}

export class AdminAttemptQueryDto extends IntersectionType(AttemptQueryDto, AdminScopeQueryDto) {}

@SafeListKinds
export class AdminAddListEntryDto extends AddListEntryDto {
  @ApiProperty({ format: 'uuid', example: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01', description: 'The account whose list it goes on' })
  @IsDefined({ message: Messages.required })
  @IsUUID('all', { message: UUID_EXPECTED })
  account_id!: string;

  @ApiPropertyOptional({ example: false, description: "`true`: the list of the account's sandbox keys; production's by default" })
  @IsOptional()
  @IsBoolean({ message: Messages.boolean })
  sandbox?: boolean;
}
