import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { AtLeastOneOf } from '../../common/validation/at-least-one-of.js';
import { LANGUAGES, type Language } from '../../common/language.js';
import { IsIdList } from '../../common/validation/shared-rules.js';
import { IsContactField, MAX_NAME_LENGTH } from '../contact-rules.js';

export const MAX_CONTACT_GROUPS = 100;


/** The fields of a contact a client writes; `phone` required. Each is checked by its rule in CONTACT_FIELDS. */
export class ContactInputDto {
  @ApiProperty({ example: '+2250707070707', description: 'International form, or national with `default_country`; unique in the account' })
  @IsContactField('phone')
  phone!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_NAME_LENGTH, example: 'Awa Koné' })
  @IsContactField('name')
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'email', example: 'awa.kone@example.com' })
  @IsContactField('email')
  email?: string | null;

  @ApiPropertyOptional({ enum: LANGUAGES, default: 'fr' })
  @IsContactField('language')
  language?: Language;

  @ApiPropertyOptional({ description: 'Up to 20 keys `[a-z0-9_]{1,32}` with text values of up to 255 characters', example: { ville: 'Abidjan' } })
  @IsContactField('attributes')
  attributes?: Record<string, string>;

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which a national `phone` is read' })
  @IsContactField('default_country')
  default_country?: string;
}

export class CreateContactDto extends ContactInputDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_CONTACT_GROUPS, description: 'Groups of the account to put the contact in' })
  @IsOptional()
  @IsIdList(MAX_CONTACT_GROUPS)
  group_ids?: string[];
}

/** A PATCH: any field of ContactInputDto, at least one besides `default_country`; `attributes` replaces the whole object. */
@AtLeastOneOf(['phone', 'name', 'email', 'language', 'attributes'], 'body: au moins un champ attendu (phone, name, email, language, attributes)')
export class UpdateContactDto extends PartialType(ContactInputDto) {}
