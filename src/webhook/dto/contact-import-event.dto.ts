import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { WebhookEventDto } from './webhook-event.dto.js';

/** `data` of a `contact_import.completed` event: the job's outcome; its errors per row are read with `GET /v1/contact/import/{id}`. */
export class ContactImportEventDataDto {
  /** @example "0193a3c2-b4d5-7e6f-8a9b-0c1d2e3f4a50" */
  @Uuid()
  id!: string;
  @ApiProperty({ enum: ['completed', 'failed'], example: 'completed', description: '`failed`: the file as a whole was refused (encoding, header, too many rows) and nothing was imported' })
  status!: 'completed' | 'failed';
  /**
   * Data rows in the file.
   * @example 1200
   */
  @Integer()
  rows!: number;
  /** @example 1180 */
  @Integer()
  created!: number;
  /** @example 0 */
  @Integer()
  updated!: number;
  /** @example 12 */
  @Integer()
  duplicates!: number;
  /** @example 8 */
  @Integer()
  invalid!: number;
  /** @example null */
  @Uuid(true)
  group_id!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
  /** @example "2026-11-22T08:00:03.410Z" */
  @DateTime()
  finished_at!: string;
  /**
   * Imported with a sandbox (`mk_test_`) key.
   * @example false
   */
  sandbox!: boolean;
}

/** The body POSTed for a `contact_import.completed` event. */
export class ContactImportWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['contact_import.completed'], example: 'contact_import.completed' })
  type!: 'contact_import.completed';
  data!: ContactImportEventDataDto;
}
