import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../../common/list/list-query.dto.js';
import { rule } from '../../common/validation/rule.js';
import { Messages } from '../../common/validation/messages.js';
import { isPhoneCountry, PHONE_COUNTRIES } from '../../common/recipient.js';
import { isValidSenderName, SENDER_NAME } from '../sender-name.js';
import { SENDER_STATUSES, type SenderStatus } from '../sender.repository.js';

const USE_CASE_LENGTH = 'doit faire de 10 à 500 caractères';
export const REASON_LENGTH = 'doit faire de 1 à 500 caractères';

const IsSenderName = rule(
  'isSenderName',
  (value) => typeof value === 'string' && isValidSenderName(value),
  () => 'doit faire 11 lettres, chiffres ou espaces au plus avec au moins une lettre, ou 15 chiffres au plus',
  { pattern: SENDER_NAME.source },
);

const IsCountryList = rule(
  'isCountryList',
  (value) => Array.isArray(value) && value.length >= 1 && value.length <= 50 && value.every(isPhoneCountry),
  () => 'doit être une liste de 1 à 50 codes pays ISO 3166-1 à deux lettres majuscules',
  { minItems: 1, maxItems: 50, items: { type: 'string', enum: [...PHONE_COUNTRIES] } },
);

export class CreateSenderDto {
  @ApiProperty({ example: 'MONAPP', description: 'Up to 11 letters, digits or spaces with a letter, or up to 15 digits' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @IsSenderName()
  name!: string;

  @ApiProperty({ minLength: 10, maxLength: 500, example: 'Codes de connexion et alertes de compte des clients de MonApp' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(10, { message: USE_CASE_LENGTH })
  @MaxLength(500, { message: USE_CASE_LENGTH })
  use_case!: string;

  @ApiPropertyOptional({ maxLength: 160, example: 'Votre code MonApp est 123456' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(160, { message: Messages.maxLength(160) })
  sample_message?: string;

  @ApiPropertyOptional({ type: [String], example: ['CI', 'SN'] })
  @IsOptional()
  @IsCountryList()
  countries?: string[];
}

export class SenderQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: SENDER_STATUSES })
  @IsOptional()
  @IsIn(SENDER_STATUSES, { message: Messages.oneOf(SENDER_STATUSES) })
  status?: SenderStatus;
}

export class RejectSenderDto {
  @ApiProperty({ minLength: 1, maxLength: 500, example: 'Marque déposée par un tiers', description: 'Why, as the account will read it (`rejection_reason`)' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(1, { message: REASON_LENGTH })
  @MaxLength(500, { message: REASON_LENGTH })
  reason!: string;
}
