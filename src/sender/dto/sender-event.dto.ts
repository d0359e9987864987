import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';

export const SENDER_EVENT_TYPES = ['sender.approved', 'sender.rejected'] as const;

/** `data` of a `sender.*` event: the sender ID as the operator's review left it. */
export class SenderEventDataDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03" */
  @Uuid()
  id!: string;
  /** @example "MONAPP" */
  name!: string;
  @ApiProperty({ enum: ['approved', 'rejected'], example: 'approved' })
  status!: 'approved' | 'rejected';
  /** @example null */
  rejection_reason!: string | null;
  /** @example "2026-11-23T10:00:00.000Z" */
  @DateTime()
  reviewed_at!: string;
}

/** The body POSTed for a `sender.*` event. */
export class SenderWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: SENDER_EVENT_TYPES, example: 'sender.approved' })
  type!: (typeof SENDER_EVENT_TYPES)[number];
  data!: SenderEventDataDto;
}
