import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { IsPhoneCountry } from '../../common/validation/shared-rules.js';
import { ON_DUPLICATE, type OnDuplicate } from '../../contact/dto/bulk-contacts.dto.js';
import { ENCODINGS } from '../csv-file.js';

export const DELIMITERS = [',', ';', 'auto'] as const;

/** What to do with the file of `POST /contact/import`. */
export class ImportQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'A group of the account every imported contact joins' })
  @IsOptional()
  @IsUUID('all', { message: 'doit être un identifiant (UUID)' })
  group_id?: string;

  @ApiPropertyOptional({ example: 'CI', description: 'ISO 3166-1 alpha-2 country in which national phones are read' })
  @IsOptional()
  @IsPhoneCountry()
  default_country?: string;

  @ApiPropertyOptional({
    enum: ON_DUPLICATE,
    default: 'skip',
    description: 'For a phone the account already has: leave that contact as it is, or update it with the non-empty cells (attributes merged key by key)',
  })
  @IsOptional()
  @IsIn(ON_DUPLICATE, { message: Messages.oneOf(ON_DUPLICATE) })
  on_duplicate?: OnDuplicate;

  @ApiPropertyOptional({ enum: DELIMITERS, default: 'auto', description: 'Cell delimiter; `auto` takes the one of `,` and `;` the header row uses most' })
  @IsOptional()
  @IsIn(DELIMITERS, { message: 'doit valoir « , », « ; » ou auto' })
  delimiter?: (typeof DELIMITERS)[number];

  @ApiPropertyOptional({
    enum: ENCODINGS,
    default: 'auto',
    description: '`auto`: UTF-8 (with or without BOM), and a file that is not valid UTF-8 is read as Windows-1252; `utf-8` refuses such a file instead',
  })
  @IsOptional()
  @IsIn(ENCODINGS, { message: Messages.oneOf(ENCODINGS) })
  encoding?: (typeof ENCODINGS)[number];
}
