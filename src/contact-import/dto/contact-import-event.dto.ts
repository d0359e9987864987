import { ApiProperty, OmitType } from '@nestjs/swagger';
import { DateTime } from '../../common/openapi/formats.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';
import { ImportJobDto } from './import-job.dto.js';

/** `data` of a `contact_import.completed` event: the job's outcome; its errors per row are read with `GET /v1/contact/import/{id}`. */
export class ContactImportEventDataDto extends OmitType(ImportJobDto, ['status', 'errors', 'finished_at'] as const) {
  @ApiProperty({ enum: ['completed', 'failed'], example: 'completed', description: '`failed`: the file as a whole was refused (encoding, header, too many rows) and nothing was imported' })
  status!: 'completed' | 'failed';
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
