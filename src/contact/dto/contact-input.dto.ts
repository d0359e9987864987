import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { LANGUAGES, type Language } from '../../delivery/email-template.js';
import { IsAttributes, IsContactEmail, IsContactPhone, IsIdList, IsPhoneCountry } from '../contact-rules.js';

export const MAX_CONTACT_GROUPS = 100;

const ATTRIBUTES_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 255 },
  maxProperties: 20,
  description: 'Up to 20 keys `[a-z0-9_]{1,32}` with text values of up to 255 characters',
  example: { ville: 'Abidjan' },
} as const;

/** The fields of a contact a client writes; `phone` required. */
export class ContactInputDto {
  @ApiProperty({ example: '+2250707070707', description: 'International form, or national with `default_country`; unique in the account' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @IsContactPhone()
  phone!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'Awa Koné' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(100, { message: Messages.maxLength(100) })
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'email', example: 'awa.kone@example.com' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsContactEmail()
  email?: string | null;

  @ApiPropertyOptional({ enum: LANGUAGES, default: 'fr' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: Messages.oneOf(LANGUAGES) })
  language?: Language;

  @ApiPropertyOptional(ATTRIBUTES_SCHEMA)
  @IsOptional()
  @IsAttributes()
  attributes?: Record<string, string>;

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which a national `phone` is read' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;
}

export class CreateContactDto extends ContactInputDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_CONTACT_GROUPS, description: 'Groups of the account to put the contact in' })
  @IsOptional()
  @IsIdList(MAX_CONTACT_GROUPS)
  group_ids?: string[];
}

/** A PATCH: any field of ContactInputDto, at least one; `attributes` replaces the whole object. */
export class UpdateContactDto extends PartialType(ContactInputDto) {}
