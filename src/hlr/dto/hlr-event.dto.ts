import { ApiProperty } from '@nestjs/swagger';
import { HlrLookupDto } from './hlr-lookup.dto.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';

/**
 * The body POSTed for an `hlr.completed` event, one per lookup once it is
 * `completed` or `failed` (refunded): `data` is the lookup as
 * `GET /v1/hlr/{id}` shows it. It goes to the request's `webhook_url`, else
 * to the account webhook when it subscribes to `hlr.completed`.
 */
export class HlrWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['hlr.completed'], example: 'hlr.completed' })
  type!: 'hlr.completed';
  data!: HlrLookupDto;
}
