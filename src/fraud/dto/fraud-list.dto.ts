import { ApiProperty, ApiPropertyOptional, DECORATORS } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { IsZonedDateTime } from '../../common/validation/zoned-date-time.js';
import { ALLOW_KINDS, FRAUD_LISTS, LIST_KINDS, type FraudList, type ListKind } from '../fraud-state.js';

/** The schema states what readListEntry checks: the safe list (`allow`) takes a phone or a user ref only. */
export const SafeListKinds: ClassDecorator = (target) => {
  const schemas = (Reflect.getOwnMetadata(DECORATORS.API_SCHEMA, target) ?? []) as object[];
  const rule = { if: { properties: { list: { const: 'allow' } }, required: ['list'] }, then: { properties: { kind: { enum: ALLOW_KINDS } } } };
  Reflect.defineMetadata(DECORATORS.API_SCHEMA, [...schemas, rule], target);
};

@SafeListKinds
export class AddListEntryDto {
  @ApiProperty({ enum: FRAUD_LISTS, example: 'block', description: '`allow`: the safe list (phone or user_ref), which skips every signal; `block`: the deny list' })
  @IsDefined({ message: Messages.required })
  @IsIn(FRAUD_LISTS, { message: Messages.oneOf(FRAUD_LISTS) })
  list!: FraudList;

  @ApiProperty({ enum: LIST_KINDS, example: 'prefix' })
  @IsDefined({ message: Messages.required })
  @IsIn(LIST_KINDS, { message: Messages.oneOf(LIST_KINDS) })
  kind!: ListKind;

  @ApiProperty({
    example: '+99899394',
    description:
      'phone: a number in international form; prefix: `+` and 1 to 14 digits, matching every number that begins with them; ' +
      'country: ISO 3166-1 alpha-2; ip: an IPv4 or IPv6 address or a CIDR range; user_ref: as sent in `POST /v1/otp/send`',
  })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(128, { message: Messages.maxLength(128) })
  value!: string;

  @ApiPropertyOptional({ example: 'Pompage SMS du 12 mars', description: 'Why it is listed' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(255, { message: Messages.maxLength(255) })
  note?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'When the entry lapses (in the future); never when left out' })
  @IsOptional()
  @IsZonedDateTime()
  expires_at?: string;
}

export class ListEntryQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: FRAUD_LISTS })
  @IsOptional()
  @IsIn(FRAUD_LISTS, { message: Messages.oneOf(FRAUD_LISTS) })
  list?: FraudList;

  @ApiPropertyOptional({ enum: LIST_KINDS })
  @IsOptional()
  @IsIn(LIST_KINDS, { message: Messages.oneOf(LIST_KINDS) })
  kind?: ListKind;
}

/** An entry of the safe (`allow`) or deny (`block`) list, in force until `expires_at`. */
export class FraudListEntryDto {
  /** @example "0193a3c2-b4c5-7d6e-8f90-1a2b3c4d5e6f" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  account_id!: string;
  /** Made with a sandbox key: applies to sandbox sends only @example false */
  sandbox!: boolean;
  @ApiProperty({ enum: FRAUD_LISTS, example: 'block' })
  list!: FraudList;
  @ApiProperty({ enum: LIST_KINDS, example: 'prefix' })
  kind!: ListKind;
  /** Normalised: E.164, `+` and digits, ISO-2, a canonical address or range @example "+99899394" */
  value!: string;
  /** @example "Pompage SMS du 12 mars" */
  note!: string | null;
  /** @example null */
  @DateTime(true)
  expires_at!: string | null;
  /** The user who listed it; null for the operator @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
}
