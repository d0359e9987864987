import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { isUuid, UUID_PATTERN } from '../../common/ids.js';
import { AtLeastOneOf } from '../../common/validation/at-least-one-of.js';
import { Messages } from '../../common/validation/messages.js';
import { rule, textList } from '../../common/validation/rule.js';
import { isPlainObject } from '../../common/validation/request-validation.pipe.js';
import { IsZonedDateTime } from '../../common/validation/zoned-date-time.js';
import { IsIdList, IsPhoneCountry } from '../../common/validation/shared-rules.js';
import { DeliveryWindowDto } from '../../sending/dto/delivery-window.dto.js';
import { DEFAULT_VALIDITY_MINUTES, MAX_MESSAGE_LENGTH, MESSAGE_TOO_LONG } from '../../sending/message-rules.js';

export const MAX_TO = 1000;
export const MAX_CONTACT_IDS = 1000;
export const MAX_GROUP_IDS = 10;

const RECIPIENTS = `doit être un numéro ou une liste de 1 à ${MAX_TO} numéros`;
const IsRecipientList = textList('isRecipientList', 1, MAX_TO, RECIPIENTS);

const LOT = /^[A-Za-z0-9_-]{1,64}$/;
const IsLot = rule(
  'isLot',
  (value) => typeof value === 'string' && LOT.test(value) && !isUuid(value),
  () => '1 à 64 caractères A-Z, a-z, 0-9, _ ou -, sans la forme d’un UUID',
  { pattern: LOT.source, not: { pattern: UUID_PATTERN } },
);

const IsWindowObject = rule('isWindowObject', isPlainObject, () => 'doit être un objet {days, from, to, timezone}');

@AtLeastOneOf(['to', 'contact_ids', 'group_ids'], 'to: au moins un destinataire (to, contact_ids ou group_ids)')
export class SendSmsDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array' }],
    example: ['+2250707070707', '+221771234567'],
    description: 'One number or up to 1,000, in international form (or national with `default_country`)',
  })
  @IsOptional()
  @ValidateIf((dto: SendSmsDto) => typeof dto.to !== 'string')
  @IsRecipientList()
  to?: string | string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_CONTACT_IDS, description: 'Contacts of the account' })
  @IsOptional()
  @IsIdList(MAX_CONTACT_IDS)
  contact_ids?: string[];

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_GROUP_IDS,
    description: 'Groups whose members (as they are now) receive the message',
  })
  @IsOptional()
  @IsIdList(MAX_GROUP_IDS)
  group_ids?: string[];

  @ApiProperty({
    example: 'Bonjour ##NAME##, votre commande ##ORDER## est prête.',
    description: '1 to 1,600 characters once personalised: `##NAME##` and `##KEY##` (an attribute) are filled from the contact, empty when absent',
  })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(MAX_MESSAGE_LENGTH, { message: MESSAGE_TOO_LONG })
  message!: string;

  @ApiPropertyOptional({
    example: 'DEMO',
    description: "An approved sender of the account (matched without case); default: the account's default sender",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  sender?: string;

  @ApiPropertyOptional({ example: 'commande-4821', description: 'Up to 100 printable ASCII characters, copied onto every message' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @Matches(/^[\x20-\x7e]{1,100}$/, { message: '1 à 100 caractères ASCII imprimables' })
  external_id?: string;

  @ApiPropertyOptional({ example: 'relance-mars', description: 'Name of the lot, unique per account; default: a new ULID' })
  @IsOptional()
  @IsLot()
  lot?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-03-01T08:00:00.000Z',
    description: 'With a `Z` or an offset. Up to a minute ahead sends now; later schedules the messages (at most `SMS_MAX_SCHEDULE_DAYS`, 35 days)',
  })
  @IsOptional()
  @IsZonedDateTime()
  send_at?: string;

  @ApiPropertyOptional({ type: DeliveryWindowDto, description: 'Messages due outside the window are held until it opens' })
  @IsOptional()
  @IsWindowObject()
  delivery_window?: DeliveryWindowDto;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 5,
    maximum: 2880,
    default: DEFAULT_VALIDITY_MINUTES,
    description: 'Minutes the operator keeps trying to deliver (SMPP validity period)',
  })
  @IsOptional()
  @IsInt({ message: Messages.integer })
  @Min(5, { message: Messages.between(5, 2880) })
  @Max(2880, { message: Messages.between(5, 2880) })
  validity_period?: number;

  @ApiPropertyOptional({
    example: 'https://example.com/hooks/sms',
    description: "Where this request's `sms.*` events go instead of the account webhook; https, public address",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(2048, { message: Messages.maxLength(2048) })
  webhook_url?: string;

  @ApiPropertyOptional({
    default: false,
    description: "Appends `OPT_OUT_TEXT` (by default `Désabo: <link>`, the recipient's own unsubscribe link); it counts in segments and cost",
  })
  @IsOptional()
  @IsBoolean({ message: Messages.boolean })
  append_opt_out?: boolean;

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which national numbers are read' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;
}
