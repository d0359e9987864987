import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';

/** How many messages of the lot are in each status. */
export class LotStatusCountsDto {
  /** @example 0 */
  @Integer()
  scheduled!: number;
  /** @example 120 */
  @Integer()
  pending!: number;
  /** @example 300 */
  @Integer()
  sent!: number;
  /** @example 560 */
  @Integer()
  delivered!: number;
  /** @example 12 */
  @Integer()
  undelivered!: number;
  /** @example 8 */
  @Integer()
  failed!: number;
  /** @example 0 */
  @Integer()
  cancelled!: number;
}

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
  @ApiProperty({ type: LotStatusCountsDto })
  by_status!: LotStatusCountsDto;
  /**
   * When its first message was accepted.
   * @example "2026-11-22T08:00:00.000Z"
   */
  @DateTime()
  created_at!: string;
}
