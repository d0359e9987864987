import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AtLeastOneOf } from '../../common/validation/at-least-one-of.js';
import { Messages } from '../../common/validation/messages.js';
import { textList } from '../../common/validation/rule.js';
import { IsPhoneCountry } from '../../common/validation/shared-rules.js';

/** Numbers one request may carry at most (`HLR_MAX_BATCH` may lower it). */
export const MAX_NUMBERS = 1000;

const IsNumberList = textList('isNumberList', 1, MAX_NUMBERS, `doit être une liste de 1 à ${MAX_NUMBERS} numéros`);

@AtLeastOneOf(['numbers', 'number'], 'numbers: au moins un numéro (numbers ou number)')
export class SubmitHlrDto {
  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_NUMBERS,
    example: ['+2250707070707', '+221771234567'],
    description: 'Up to 1,000 numbers, in international form (or national with `default_country`); give `numbers` or `number`',
  })
  @IsOptional()
  @IsNumberList()
  numbers?: string[];

  @ApiPropertyOptional({ example: '+2250707070707', description: 'One number, instead of `numbers`' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(40, { message: Messages.maxLength(40) })
  number?: string;

  @ApiPropertyOptional({ example: 'verif-4821', description: 'Up to 100 printable ASCII characters, copied onto every lookup' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @Matches(/^[\x20-\x7e]{1,100}$/, { message: '1 à 100 caractères ASCII imprimables' })
  external_id?: string;

  @ApiPropertyOptional({
    example: 'https://example.com/hooks/hlr',
    description: "Where this request's `hlr.completed` events go instead of the account webhook; https, public address",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(2048, { message: Messages.maxLength(2048) })
  webhook_url?: string;

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which national numbers are read' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;
}
