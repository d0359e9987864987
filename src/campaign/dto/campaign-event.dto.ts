import { ApiProperty, PickType } from '@nestjs/swagger';
import { Integer } from '../../common/openapi/formats.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';
import { CampaignDto } from './campaign.dto.js';

/** `data` of a `campaign.*` event: the campaign at that moment; its live counts are read with `GET /v1/campaign/{id}`. */
export class CampaignEventDataDto extends PickType(CampaignDto, [
  'id',
  'name',
  'lot',
  'amount',
  'refunded',
  'started_at',
  'completed_at',
  'cancelled_at',
  'cancel_reason',
  'sandbox',
] as const) {
  @ApiProperty({ enum: ['running', 'done', 'cancelled'], example: 'running' })
  status!: 'running' | 'done' | 'cancelled';
  /**
   * Recipients frozen at launch.
   * @example 1200
   */
  @Integer()
  recipients!: number;
}

/** The body POSTed for a `campaign.started`, `campaign.completed` or `campaign.cancelled` event. */
export class CampaignWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['campaign.started', 'campaign.completed', 'campaign.cancelled'], example: 'campaign.started' })
  type!: 'campaign.started' | 'campaign.completed' | 'campaign.cancelled';
  data!: CampaignEventDataDto;
}
