import { ApiProperty } from '@nestjs/swagger';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';
import { MessageInDto } from './message-in.dto.js';

/** `data` of an `sms.received` event: a message a recipient wrote to one of the account's local numbers, as `GET /v1/sms/in` lists it. */
export class SmsReceivedEventDataDto extends MessageInDto {}

/** The body POSTed for an `sms.received` event. */
export class SmsReceivedWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['sms.received'], example: 'sms.received' })
  type!: 'sms.received';
  data!: SmsReceivedEventDataDto;
}
