import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { LANGUAGES, type Language } from '../../common/language.js';

/** A contact of the address book. */
export class ContactDto {
  /** @example "0193a3c2-a1b2-7c3d-8e4f-5a6b7c8d9e01" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  company_id!: string;
  /** @example "Awa Koné" */
  name!: string | null;
  /** @example "awa.kone@example.com" */
  email!: string | null;
  /** E.164 @example "+2250707070707" */
  phone!: string;
  /** ISO 3166-1 alpha-2, from the phone number @example "CI" */
  country!: string | null;
  @ApiProperty({ enum: LANGUAGES, example: 'fr' })
  language!: Language;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Up to 20 keys `[a-z0-9_]{1,32}` with text values of up to 255 characters; `##KEY##` in a message is replaced by the value',
    example: { ville: 'Abidjan', client_id: 'C-1042' },
  })
  attributes!: Record<string, string>;
  /** On the account's opt-out list (for the calling key's mode); read-only @example false */
  opted_out!: boolean;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  updated_at!: string;
}

/** A contact with the groups it belongs to. */
export class ContactDetailDto extends ContactDto {
  @ApiProperty({ type: [String], format: 'uuid', example: ['0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20'] })
  group_ids!: string[];
}
