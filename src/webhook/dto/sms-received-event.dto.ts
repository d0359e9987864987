import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { WebhookEventDto } from './webhook-event.dto.js';

/** `data` of an `sms.received` event: a message a recipient wrote to one of the account's local numbers. */
export class SmsReceivedEventDataDto {
  /**
   * The inbound message's id, as `GET /v1/sms/in` lists it.
   * @example "0193a3c2-9e4f-7a1b-8c2d-3e4f5a6b7c8d"
   */
  @Uuid()
  id!: string;
  /**
   * The writer's number, E.164.
   * @example "+2250707070707"
   */
  from!: string;
  /**
   * The account's local number it was written to, E.164.
   * @example "+2250102030405"
   */
  to!: string;
  /**
   * The text as received.
   * @example "STOP"
   */
  message!: string;
  @ApiProperty({ enum: ['GSM7', 'LATIN1', 'UCS2', 'BINARY'], example: 'GSM7', description: 'How the text was coded on the air' })
  message_encoding!: string;
  /**
   * The keyword the whole message is (trimmed, case and accents ignored), or null for an ordinary message.
   * `STOP`-like keywords put the writer on the opt-out list and `START`-like ones take them off it (a `contact.*` event follows).
   * @example "STOP"
   */
  keyword!: string | null;
  /**
   * When the provider handed the message over.
   * @example "2026-11-22T08:00:00.000Z"
   */
  @DateTime()
  received_at!: string;
}

/** The body POSTed for an `sms.received` event. */
export class SmsReceivedWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['sms.received'], example: 'sms.received' })
  type!: 'sms.received';
  data!: SmsReceivedEventDataDto;
}
