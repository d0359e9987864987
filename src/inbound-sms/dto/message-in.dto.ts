import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { PHONE_INVALID } from '../../common/recipient.js';
import { Messages } from '../../common/validation/messages.js';
import { SMS_KEYWORDS, type SmsKeyword } from '../sms-keywords.js';

export class MessageInQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ example: '+2250707070707', description: 'Messages from this number only (international form; `+` optional)' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(32, { message: PHONE_INVALID })
  from?: string;

  @ApiPropertyOptional({ enum: SMS_KEYWORDS, example: 'STOP', description: 'Messages that were this keyword only' })
  @IsOptional()
  @IsIn(SMS_KEYWORDS, { message: Messages.oneOf(SMS_KEYWORDS) })
  keyword?: SmsKeyword;
}

/** An SMS a recipient wrote to one of the account's local numbers. */
export class MessageInDto {
  /** @example "0193a3c2-9e4f-7a1b-8c2d-3e4f5a6b7c8d" */
  @Uuid()
  id!: string;
  /** The writer's number, E.164 @example "+2250707070707" */
  from!: string;
  /** The account's local number it was written to, E.164 @example "+2250102030405" */
  to!: string;
  /** The text as received @example "STOP" */
  message!: string;
  @ApiProperty({ enum: ['GSM7', 'LATIN1', 'UCS2', 'BINARY'], example: 'GSM7', description: 'How the text was coded on the air' })
  message_encoding!: string;
  @ApiProperty({
    enum: SMS_KEYWORDS,
    nullable: true,
    example: 'STOP',
    description:
      'The keyword the whole message is (trimmed, case and accents ignored), or null. Opt-out keywords put `from` on the opt-out list (source `sms_keyword`), ' +
      'opt-in keywords take it off; help keywords change nothing. `STOP PLEASE` is an ordinary message.',
  })
  keyword!: SmsKeyword | null;
  /** When the provider handed it over @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  received_at!: string;
}
