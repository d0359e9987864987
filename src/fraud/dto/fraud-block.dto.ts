import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { BLOCK_REASONS, BLOCK_SCOPES, type BlockReason, type BlockScope } from '../fraud-state.js';

const BOOLEANS = ['true', 'false'] as const;

export class BlockQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: BLOCK_SCOPES })
  @IsOptional()
  @IsIn(BLOCK_SCOPES, { message: Messages.oneOf(BLOCK_SCOPES) })
  scope?: BlockScope;

  @ApiPropertyOptional({ enum: BLOCK_REASONS })
  @IsOptional()
  @IsIn(BLOCK_REASONS, { message: Messages.oneOf(BLOCK_REASONS) })
  reason?: BlockReason;

  @ApiPropertyOptional({ enum: BOOLEANS, description: '`true`: the blocks in force; `false`: those lifted or ended (kept 30 days)' })
  @IsOptional()
  @IsIn(BOOLEANS, { message: Messages.oneOf(BOOLEANS) })
  active?: (typeof BOOLEANS)[number];
}

/** A temporary block of a prefix or a country, made by the guard. */
export class FraudBlockDto {
  /** @example "0193a3c2-c1d2-7e3f-8a4b-5c6d7e8f9a0b" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  account_id!: string;
  /** @example false */
  sandbox!: boolean;
  @ApiProperty({ enum: BLOCK_SCOPES, example: 'prefix' })
  scope!: BlockScope;
  /** The prefix (the number without its last 4 digits) or the ISO-2 country @example "+99899394" */
  value!: string;
  @ApiProperty({ enum: BLOCK_REASONS, example: 'prefix_velocity' })
  reason!: BlockReason;
  @ApiProperty({ enum: ['enforce', 'monitor'], example: 'enforce', description: '`monitor`: made while its group was in monitor mode; it records the sends it would refuse' })
  mode!: 'enforce' | 'monitor';
  /** The how-manieth block of this prefix in a row (each repeat within a day lasts twice as long, up to 24 h) @example 1 */
  @Integer()
  strikes!: number;
  /** @example "2026-11-22T09:00:00.000Z" */
  @DateTime()
  blocked_until!: string;
  /** When it was lifted by hand @example null */
  @DateTime(true)
  lifted_at!: string | null;
  /** In force now @example true */
  active!: boolean;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
}
