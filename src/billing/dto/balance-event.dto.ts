import { ApiProperty } from '@nestjs/swagger';
import { DateTime } from '../../common/openapi/formats.js';
import { WebhookEventDto } from '../../webhook/dto/webhook-event.dto.js';

/** `data` of a `balance.low` event: the balance (as `GET /v1/balance` shows it) right after the debit that took it below the threshold. */
export class BalanceEventDataDto {
  /** @example 480 */
  balance!: number;
  /** @example "XOF" */
  currency!: string;
  /** @example 500 */
  low_balance_threshold!: number;
  /** The time of the debit @example "2026-11-22T08:00:00.120Z" */
  @DateTime()
  updated_at!: string;
}

/** The body POSTed for `balance.low`: sent once per crossing, and again only after the balance has come back to or above the threshold. */
export class BalanceWebhookEventDto extends WebhookEventDto {
  @ApiProperty({ enum: ['balance.low'], example: 'balance.low' })
  type!: 'balance.low';
  data!: BalanceEventDataDto;
}
