import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { MessageStatusCountsDto } from './message-status-counts.dto.js';

/** The progress of a lot. */
export class LotSummaryDto {
  /** @example "relance-mars" */
  lot!: string;
  /** @example null */
  @Uuid(true)
  campaign_id!: string | null;
  /**
   * Messages in the lot.
   * @example 1000
   */
  @Integer()
  count!: number;
  /**
   * What the lot costs now: its messages' amounts, less those refunded (failed or cancelled).
   * @example 2480
   */
  amount!: number;
  @ApiProperty({ type: MessageStatusCountsDto })
  by_status!: MessageStatusCountsDto;
  /**
   * When its first message was accepted.
   * @example "2026-11-22T08:00:00.000Z"
   */
  @DateTime()
  created_at!: string;
}
