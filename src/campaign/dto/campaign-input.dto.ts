import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../../common/list/list-query.dto.js';
import { AtLeastOneOf } from '../../common/validation/at-least-one-of.js';
import { Messages } from '../../common/validation/messages.js';
import { isPlainObject } from '../../common/validation/request-validation.pipe.js';
import { rule } from '../../common/validation/rule.js';
import { IsZonedDateTime } from '../../common/validation/zoned-date-time.js';
import { IsIdList } from '../../common/validation/shared-rules.js';
import { DeliveryWindowDto } from '../../sending/dto/delivery-window.dto.js';
import { MAX_MESSAGE_LENGTH, MESSAGE_TOO_LONG } from '../../sending/message-rules.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../campaign-status.js';

export const MAX_GROUPS = 20;
const NAME_LENGTH = 'doit faire de 1 à 100 caractères';

const IsWindowObject = rule('isWindowObject', isPlainObject, () => 'doit être un objet {days, from, to, timezone}');

/** A draft campaign; every field but `name`, `message` and `group_ids` may be left out. */
export class CreateCampaignDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Soldes de mars' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(1, { message: NAME_LENGTH })
  @MaxLength(100, { message: NAME_LENGTH })
  name!: string;

  @ApiProperty({
    example: 'Bonjour ##NAME##, -20 % sur tout le magasin ce week-end.',
    description: '1 to 1,600 characters once personalised: `##NAME##` and `##KEY##` (an attribute) are filled from the contact, empty when absent',
  })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(MAX_MESSAGE_LENGTH, { message: MESSAGE_TOO_LONG })
  message!: string;

  @ApiPropertyOptional({ example: 'DEMO', description: "A sender of the account (matched without case), approved by launch time; default: the account's default sender" })
  @IsOptional()
  @IsString({ message: Messages.string })
  sender?: string | null;

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_GROUPS, description: 'Groups whose members, as they are at launch, receive the message' })
  @IsDefined({ message: Messages.required })
  @IsIdList(MAX_GROUPS)
  group_ids!: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_GROUPS, description: 'Groups whose members are left out' })
  @IsOptional()
  @IsIdList(MAX_GROUPS, 0)
  exclude_group_ids?: string[];

  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    example: '2026-03-01T08:00:00.000Z',
    description: 'With a `Z` or an offset; the launch can set another. Up to a minute ahead starts at launch; at most `SMS_MAX_SCHEDULE_DAYS` (35 days) after the launch',
  })
  @IsOptional()
  @IsZonedDateTime()
  send_at?: string | null;

  @ApiPropertyOptional({ type: DeliveryWindowDto, nullable: true, description: 'Messages due outside the window are held until it opens' })
  @IsOptional()
  @IsWindowObject()
  delivery_window?: DeliveryWindowDto | null;

  @ApiPropertyOptional({ example: 'https://example.com/hooks/sms', nullable: true, description: "Where the campaign messages' `sms.*` events go instead of the account webhook" })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(2048, { message: Messages.maxLength(2048) })
  webhook_url?: string | null;

  @ApiPropertyOptional({ default: true, description: "Appends `OPT_OUT_TEXT` (by default `Désabo: <link>`); it counts in segments and cost" })
  @IsOptional()
  @IsBoolean({ message: Messages.boolean })
  append_opt_out?: boolean;
}

/** The fields of a draft to change, at least one; `null` clears `sender`, `send_at`, `delivery_window` and `webhook_url`. */
@AtLeastOneOf(
  ['name', 'message', 'sender', 'group_ids', 'exclude_group_ids', 'send_at', 'delivery_window', 'webhook_url', 'append_opt_out'],
  'body: au moins un champ attendu (name, message, sender, group_ids, exclude_group_ids, send_at, delivery_window, webhook_url, append_opt_out)',
)
export class UpdateCampaignDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Soldes de mars (relance)' })
  @ValidateIf((dto: UpdateCampaignDto) => dto.name !== undefined)
  @IsString({ message: Messages.string })
  @MinLength(1, { message: NAME_LENGTH })
  @MaxLength(100, { message: NAME_LENGTH })
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_MESSAGE_LENGTH, example: 'Dernier jour des soldes, ##NAME## !' })
  @ValidateIf((dto: UpdateCampaignDto) => dto.message !== undefined)
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(MAX_MESSAGE_LENGTH, { message: MESSAGE_TOO_LONG })
  message?: string;

  @ApiPropertyOptional({ nullable: true, example: 'DEMO' })
  @IsOptional()
  @IsString({ message: Messages.string })
  sender?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_GROUPS })
  @ValidateIf((dto: UpdateCampaignDto) => dto.group_ids !== undefined)
  @IsIdList(MAX_GROUPS)
  group_ids?: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_GROUPS })
  @ValidateIf((dto: UpdateCampaignDto) => dto.exclude_group_ids !== undefined)
  @IsIdList(MAX_GROUPS, 0)
  exclude_group_ids?: string[];

  @ApiPropertyOptional({ format: 'date-time', nullable: true, example: '2026-03-02T08:00:00.000Z' })
  @IsOptional()
  @IsZonedDateTime()
  send_at?: string | null;

  @ApiPropertyOptional({ type: DeliveryWindowDto, nullable: true })
  @IsOptional()
  @IsWindowObject()
  delivery_window?: DeliveryWindowDto | null;

  @ApiPropertyOptional({ nullable: true, example: 'https://example.com/hooks/sms' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(2048, { message: Messages.maxLength(2048) })
  webhook_url?: string | null;

  @ApiPropertyOptional({ example: false })
  @ValidateIf((dto: UpdateCampaignDto) => dto.append_opt_out !== undefined)
  @IsBoolean({ message: Messages.boolean })
  append_opt_out?: boolean;
}

export class LaunchCampaignDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-03-01T08:00:00.000Z',
    description: "Replaces the campaign's `send_at`. Up to a minute ahead starts now; later schedules it (at most `SMS_MAX_SCHEDULE_DAYS`)",
  })
  @IsOptional()
  @IsZonedDateTime()
  send_at?: string;
}

export class CancelCampaignDto {
  @ApiPropertyOptional({ maxLength: 255, example: 'Erreur dans le texte' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(255, { message: Messages.maxLength(255) })
  reason?: string;
}

export class CampaignQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CAMPAIGN_STATUSES })
  @IsOptional()
  @IsIn(CAMPAIGN_STATUSES, { message: Messages.oneOf(CAMPAIGN_STATUSES) })
  status?: CampaignStatus;
}
