import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { WEBHOOK_API_VERSION } from '../webhook-event-types.js';

/**
 * What every event body carries (Standard Webhooks): verify the
 * `webhook-signature` header over the raw body before reading it, and
 * deduplicate on `id` (the `webhook-id` header), the same on every retry and
 * resend. Each kind of event adds its `type` and `data`.
 */
export abstract class WebhookEventDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f99" */
  @Uuid()
  id!: string;
  /** @example "2026-11-22T08:00:04.310Z" */
  @DateTime()
  created_at!: string;
  @ApiProperty({ enum: [WEBHOOK_API_VERSION], example: WEBHOOK_API_VERSION })
  api_version!: typeof WEBHOOK_API_VERSION;
}
