import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional } from 'class-validator';
import { AtLeastOneOf } from '../../common/validation/at-least-one-of.js';
import { Messages } from '../../common/validation/messages.js';
import { IsIdList, IsPhoneCountry, IsTextList } from '../../common/validation/shared-rules.js';

export const MAX_MEMBERS_PER_CALL = 1000;

@AtLeastOneOf(['contact_ids', 'phones'], 'body: contact_ids ou phones attendu')
export class AddMembersDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_MEMBERS_PER_CALL, description: "Contacts of the account" })
  @IsOptional()
  @IsIdList(MAX_MEMBERS_PER_CALL)
  contact_ids?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_MEMBERS_PER_CALL,
    example: ['+2250707070707', '+221771234567'],
    description: 'Phone numbers; one the account has no contact for becomes a new contact',
  })
  @IsOptional()
  @IsTextList(MAX_MEMBERS_PER_CALL)
  phones?: string[];

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which national phones are read' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;
}

export class RemoveMembersDto {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_MEMBERS_PER_CALL })
  @IsDefined({ message: Messages.required })
  @IsIdList(MAX_MEMBERS_PER_CALL)
  contact_ids!: string[];
}

export class RejectedValueDto {
  /** The contact id or phone as given @example "+22507" */
  value!: string;
  /** @example "numéro de téléphone invalide" */
  reason!: string;
}

/** What `POST /group/{id}/contacts` did. */
export class AddResultDto {
  /** Contacts that joined the group @example 2 */
  added!: number;
  /** Contacts that were members already @example 1 */
  already_member!: number;
  /** Contacts created for phones the account had no contact for @example 1 */
  created_contacts!: number;
  @ApiProperty({ type: [RejectedValueDto] })
  rejected!: RejectedValueDto[];
}

export class RemovedDto {
  /** Memberships ended @example 2 */
  removed!: number;
}
