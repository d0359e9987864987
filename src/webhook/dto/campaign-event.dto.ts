import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { WebhookEventDto } from './webhook-event.dto.js';

/** `data` of a `campaign.*` event: the campaign at that moment; its live counts are read with `GET /v1/campaign/{id}`. */
export class CampaignEventDataDto {
  /** @example "0193a3c2-d1e2-7f30-8a4b-5c6d7e8f9a01" */
  @Uuid()
  id!: string;
  /** @example "Soldes de mars" */
  name!: string;
  @ApiProperty({ enum: ['running', 'done', 'cancelled'], example: 'running' })
  status!: 'running' | 'done' | 'cancelled';
  /** @example "01JD2X7R8Q4M6N0P2R4T6V8X0Z" */
  @ApiProperty({ type: String, nullable: true, example: '01JD2X7R8Q4M6N0P2R4T6V8X0Z' })
  lot!: string | null;
  /**
   * Recipients frozen at launch.
   * @example 1200
   */
  @Integer()
  recipients!: number;
  /** Debited at launch. @example 3000 */
  amount!: number;
  /** Given back by a cancel. @example 0 */
  refunded!: number;
  @DateTime(true)
  started_at!: string | null;
  @DateTime(true)
  completed_at!: string | null;
  @DateTime(true)
  cancelled_at!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  cancel_reason!: string | null;
  /** Made with a sandbox (`mk_test_`) key. */
  sandbox!: boolean;
}

/** The body POSTed for a `campaign.started`, `campaign.completed` or `campaign.cancelled` event. */
export class CampaignWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['campaign.started', 'campaign.completed', 'campaign.cancelled'], example: 'campaign.started' })
  type!: 'campaign.started' | 'campaign.completed' | 'campaign.cancelled';
  data!: CampaignEventDataDto;
}
