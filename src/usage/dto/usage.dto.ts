import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer } from '../../common/openapi/formats.js';
import { MessageStatusCountsDto } from '../../sms/dto/message-status-counts.dto.js';

export class UsageTotalsDto {
  /** Messages accepted @example 1200 */
  @Integer()
  messages!: number;
  /** @example 1300 */
  @Integer()
  segments!: number;
  /** Charged for them @example 3250 */
  amount!: number;
  @ApiProperty({ type: MessageStatusCountsDto, example: { scheduled: 0, pending: 0, sent: 100, delivered: 1000, undelivered: 50, failed: 50, cancelled: 0 } })
  by_status!: MessageStatusCountsDto;
  /** delivered ÷ (sent + delivered + undelivered), 4 decimals; null when none was handed over @example 0.8696 */
  @ApiProperty({ type: Number, nullable: true, example: 0.8696 })
  delivery_rate!: number | null;
  /** failed ÷ (sent + delivered + undelivered + failed), 4 decimals; null when the denominator is 0 @example 0.0417 */
  @ApiProperty({ type: Number, nullable: true, example: 0.0417 })
  failure_rate!: number | null;
}

export class UsageBucketDto extends UsageTotalsDto {
  /** The local day (`2026-03-01`), the Monday of the week, or the month (`2026-03`) @example "2026-03-01" */
  period!: string;
}

/** The OTPs of the range: those accepted, those verified, and the sends the fraud guard refused. */
export class UsageOtpTotalsDto {
  /** OTPs accepted (SMS and e-mail) @example 1000 */
  @Integer()
  sent!: number;
  /** Of them, those verified @example 870 */
  @Integer()
  verified!: number;
  /** verified ÷ sent, 4 decimals; null when none was sent @example 0.87 */
  @ApiProperty({ type: Number, nullable: true, example: 0.87 })
  conversion_rate!: number | null;
  /** Sends the fraud guard refused (403 `envoi_bloque`) @example 12 */
  @Integer()
  blocked!: number;
}

/** What GET /metrics answers. */
export class UsageDto {
  /** @example "2026-03-01T00:00:00.000Z" */
  @DateTime()
  from!: string;
  /** @example "2026-04-01T00:00:00.000Z" */
  @DateTime()
  to!: string;
  /** @example "Africa/Abidjan" */
  timezone!: string;
  @ApiProperty({ type: UsageTotalsDto })
  totals!: UsageTotalsDto;
  @ApiProperty({ type: UsageOtpTotalsDto, description: 'Over the whole range; filtered by `country` only' })
  otp!: UsageOtpTotalsDto;
  @ApiProperty({ type: [UsageBucketDto], description: 'Every period from `from` to `to`, empty ones included; none for `granularity=none`' })
  buckets!: UsageBucketDto[];
}
