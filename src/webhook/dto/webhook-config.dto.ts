import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsOptional, IsString, ValidateIf } from 'class-validator';
import { DateTime } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-event-types.js';

const EXAMPLE_URL = 'https://hooks.example.com/sms';

/** The account's default webhook. */
export class WebhookConfigDto {
  @ApiProperty({ type: String, nullable: true, example: EXAMPLE_URL, description: 'Where events are POSTed; null: no account webhook' })
  url!: string | null;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['sms.delivered', 'sms.failed'], description: 'The event types sent to `url`' })
  events!: WebhookEventType[];

  /**
   * Set when the URL had failed every attempt for 5 days; a PUT enables it again.
   * @example null
   */
  @DateTime(true)
  disabled_at!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Hd2XzLlOdM=',
    description: 'The signing secret, only in the answer that created it (the first PUT); null otherwise. Keep it: it is never shown again.',
  })
  secret!: string | null;
}

export class UpdateWebhookDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: EXAMPLE_URL,
    description: 'An http(s) URL without credentials whose name resolves to public addresses only; null removes the account webhook',
  })
  @IsDefined({ message: Messages.required })
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: Messages.string })
  url!: string | null;

  @ApiProperty({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    uniqueItems: true,
    required: false,
    example: ['sms.delivered', 'sms.undelivered', 'sms.failed'],
    description: 'Event types to receive (default: none). SMS events of messages sent with their own `webhook_url` go there instead.',
  })
  @IsOptional()
  @IsArray({ message: 'doit être une liste' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: `ne doit pas contenir plus de ${WEBHOOK_EVENT_TYPES.length} types` })
  events?: WebhookEventType[];
}

export class WebhookSecretDto {
  /**
   * The new signing secret, shown only this once. The previous one still signs for 24 hours (two signatures are sent).
   * @example "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Hd2XzLlOdM="
   */
  secret!: string;
}

export class WebhookResendDto {
  /**
   * The event queued again: its `webhook-id`, the same as on its first delivery.
   * @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f99"
   */
  @ApiProperty({ format: 'uuid' })
  event_id!: string;
}
