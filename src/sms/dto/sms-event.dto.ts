import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';

export const SMS_EVENT_TYPES = ['sms.sent', 'sms.delivered', 'sms.undelivered', 'sms.failed', 'sms.cancelled'] as const;

/** `data` of an `sms.*` event: the message as it was when its status changed. */
export class SmsEventDataDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  uniq_id!: string;
  /** @example "01JD3Q5W0Z6Y7X8V9T0S1R2Q3P" */
  lot!: string;
  /** @example null */
  external_id!: string | null;
  /** @example null */
  @Uuid(true)
  campaign_id!: string | null;
  /**
   * Recipient, E.164.
   * @example "+2250707070707"
   */
  to!: string;
  /** @example "DEMO" */
  sender!: string | null;
  @ApiProperty({ enum: ['sent', 'delivered', 'undelivered', 'failed', 'cancelled'], example: 'delivered' })
  status!: string;
  /** @example "DELIVRD" */
  provider_status!: string | null;
  /** @example null */
  error_code!: string | null;
  /** @example null */
  mccmnc!: string | null;
  /**
   * Number of segments, as in MessageOut.
   * @example "1"
   */
  page!: string;
  /** @example 2.5 */
  amount!: number;
  /** @example "2026-11-22T08:00:00.120Z" */
  @DateTime(true)
  send_at!: string | null;
  /** @example "2026-11-22T08:00:04.310Z" */
  @DateTime(true)
  done_at!: string | null;
  /**
   * When the status changed.
   * @example "2026-11-22T08:00:04.310Z"
   */
  @DateTime()
  status_at!: string;
  /**
   * Increases with every status change of the message: drop an event whose sequence is not greater than the last one seen (delivery order is not guaranteed).
   * @example 2
   */
  @Integer()
  sequence!: number;
  /**
   * Sent with a sandbox (`mk_test_`) key.
   * @example false
   */
  sandbox!: boolean;
}

/** The body POSTed for an `sms.*` event. */
export class SmsWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: SMS_EVENT_TYPES, example: 'sms.delivered' })
  type!: (typeof SMS_EVENT_TYPES)[number];
  data!: SmsEventDataDto;
}
