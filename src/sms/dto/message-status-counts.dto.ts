import { Integer } from '../../common/openapi/formats.js';

/** How many messages are in each status (a lot's, a campaign's, a period's). */
export class MessageStatusCountsDto {
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
