import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { IMPORT_STATUSES, type ImportStatus } from '../contact-import.repository.js';
import type { FileEncoding } from '../csv-file.js';

/** The errors of one row of the file. */
export class ImportRowErrorsDto {
  /**
   * Spreadsheet row number (the header is row 1); 0 for the file as a whole.
   * @example 14
   */
  @Integer()
  row!: number;
  @ApiProperty({ type: [String], example: ['phone: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'] })
  errors!: string[];
}

/** A CSV import: queued, running or finished, with its counts and errors per row. */
export class ImportJobDto {
  /** @example "0193a3c2-b4d5-7e6f-8a9b-0c1d2e3f4a50" */
  @Uuid()
  id!: string;
  @ApiProperty({
    enum: IMPORT_STATUSES,
    example: 'completed',
    description: '`failed`: the file was refused whole (encoding, header, too many rows; nothing imported), or its group was deleted meanwhile',
  })
  status!: ImportStatus;
  /**
   * Data rows in the file (empty rows aside); 0 until the file is read.
   * @example 1200
   */
  @Integer()
  rows!: number;
  /** @example 1180 */
  @Integer()
  created!: number;
  /**
   * Contacts the account had, updated (`on_duplicate=update`).
   * @example 0
   */
  @Integer()
  updated!: number;
  /**
   * Rows whose phone came earlier in the file, or that the account already had (`on_duplicate=skip`).
   * @example 12
   */
  @Integer()
  duplicates!: number;
  /** @example 8 */
  @Integer()
  invalid!: number;
  @ApiProperty({ type: [ImportRowErrorsDto], description: 'The first 1,000 rows in error, in file order' })
  errors!: ImportRowErrorsDto[];
  /** @example "0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20" */
  @Uuid(true)
  group_id!: string | null;
  @ApiProperty({
    enum: ['utf-8', 'windows-1252'],
    example: 'utf-8',
    description: 'What the file was read as: UTF-8 (with or without BOM), or Windows-1252 for a file that is not UTF-8',
  })
  encoding!: FileEncoding;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
  /** @example "2026-11-22T08:00:03.410Z" */
  @DateTime(true)
  finished_at!: string | null;
}
