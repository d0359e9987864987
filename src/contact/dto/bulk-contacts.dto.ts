import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { rule } from '../../common/validation/rule.js';
import { IsIdList, IsPhoneCountry } from '../../common/validation/shared-rules.js';
import { ContactInputDto, MAX_CONTACT_GROUPS } from './contact-input.dto.js';

export const MAX_BULK_CONTACTS = 1000;
export const ON_DUPLICATE = ['skip', 'update'] as const;
export type OnDuplicate = (typeof ON_DUPLICATE)[number];

const IsItemList = rule(
  'isItemList',
  (value) => Array.isArray(value) && value.length >= 1 && value.length <= MAX_BULK_CONTACTS,
  () => `doit être une liste de 1 à ${MAX_BULK_CONTACTS} contacts`,
);

export class BulkContactsDto {
  @ApiProperty({ type: [ContactInputDto], minItems: 1, maxItems: MAX_BULK_CONTACTS, description: 'Each is checked alone: a bad one is reported by its index, the others are written' })
  @IsDefined({ message: Messages.required })
  @IsItemList()
  contacts!: unknown[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_CONTACT_GROUPS, description: 'Groups every contact of the request is put in' })
  @IsOptional()
  @IsIdList(MAX_CONTACT_GROUPS)
  group_ids?: string[];

  @ApiPropertyOptional({ enum: ON_DUPLICATE, default: 'skip', description: 'For a phone the account already has: leave that contact as it is, or update the fields given (attributes merged key by key)' })
  @IsOptional()
  @IsIn(ON_DUPLICATE, { message: Messages.oneOf(ON_DUPLICATE) })
  on_duplicate?: OnDuplicate;

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which national phones are read (an item may carry its own)' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;
}

/** What `POST /contact/bulk` did. */
export class BulkResultDto {
  /** @example 998 */
  created!: number;
  /** @example 0 */
  updated!: number;
  /** Phones the account already had (`on_duplicate: skip`) or given twice in the request @example 1 */
  skipped!: number;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      required: ['index', 'errors'],
      properties: { index: { type: 'integer' }, errors: { type: 'array', items: { type: 'string' } } },
    },
    example: [{ index: 3, errors: ['phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'] }],
  })
  errors!: Array<{ index: number; errors: string[] }>;
}
