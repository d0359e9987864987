import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { Messages } from '../../common/validation/messages.js';
import { rule } from '../../common/validation/rule.js';
import { IsPhone } from '../../common/validation/shared-rules.js';
import { MESSAGE_STATUSES, MESSAGE_TYPES } from './message-out.dto.js';

const UUID_EXPECTED = 'doit être un identifiant (UUID)';
const STATUS_LIST_INVALID = `doit valoir ${MESSAGE_STATUSES.join(', ')}, ou plusieurs séparés par des virgules`;

const STATUS = `\\s*(?:${MESSAGE_STATUSES.join('|')})\\s*`;
const IsStatusList = rule(
  'isStatusList',
  (value) => typeof value === 'string' && value.split(',').every((status) => (MESSAGE_STATUSES as readonly string[]).includes(status.trim())),
  () => STATUS_LIST_INVALID,
  { pattern: `^${STATUS}(?:,${STATUS})*$` },
);

/** GET /sms/out: the list convention, the creation range (by default the last 30 days) and the filters, combined with AND. */
export class MessageOutQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({
    example: 'delivered,undelivered',
    description: `Messages in one of these statuses, separated by commas: ${MESSAGE_STATUSES.join(', ')}`,
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsStatusList()
  status?: string;

  @ApiPropertyOptional({ enum: MESSAGE_TYPES, description: 'OTPs or ordinary SMS only' })
  @IsOptional()
  @IsIn(MESSAGE_TYPES, { message: Messages.oneOf(MESSAGE_TYPES) })
  type?: (typeof MESSAGE_TYPES)[number];

  @ApiPropertyOptional({ example: 'relance-mars', description: 'The messages of this lot' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: '1 à 64 caractères A-Z, a-z, 0-9, _ ou -' })
  lot?: string;

  @ApiPropertyOptional({ example: 'commande-4821', description: 'The messages sent with this `external_id`' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @Matches(/^[\x20-\x7e]{1,100}$/, { message: '1 à 100 caractères ASCII imprimables' })
  external_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The messages of this campaign' })
  @IsOptional()
  @IsUUID('all', { message: UUID_EXPECTED })
  campaign_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The messages sent under this sender' })
  @IsOptional()
  @IsUUID('all', { message: UUID_EXPECTED })
  sender_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "The messages whose `contact_id` is this contact's: those sent to it, and those to its number that name no contact (OTPs)",
  })
  @IsOptional()
  @IsUUID('all', { message: UUID_EXPECTED })
  contact_id?: string;

  @ApiPropertyOptional({ example: '+2250707070707', description: 'The messages to this number, in international form (encode the `+` as `%2B`)' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @IsPhone()
  to?: string;
}
