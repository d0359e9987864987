import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Integer } from '../../common/openapi/formats.js';

export class ConnectorBindsDto {
  /** @example 2 */
  @Integer()
  bound!: number;
  /** @example 2 */
  @Integer()
  total!: number;
}

/** A connector of the routing file as the instance that answers sees it. */
export class ConnectorDto {
  /** @example "orange-ci" */
  id!: string;
  /**
   * At least one bind bound, not drained, circuit closed.
   * @example true
   */
  healthy!: boolean;
  @ApiProperty({ type: ConnectorBindsDto })
  binds!: ConnectorBindsDto;
  /** @example "closed" */
  @ApiProperty({ enum: ['closed', 'open', 'half_open'] })
  circuit!: 'closed' | 'open' | 'half_open';
  /**
   * Taken out of every route by the operator, on every instance.
   * @example false
   */
  drained!: boolean;
  /**
   * Its submits per second on each instance, as the routing file sets it; null for no limit.
   * @example 50
   */
  @ApiProperty({ type: Number, nullable: true })
  tps!: number | null;
  /**
   * The rate allowed now, lowered by the SMSC's busy answers and grown back; null for no limit.
   * @example 50
   */
  @ApiProperty({ type: Number, nullable: true })
  rate!: number | null;
  /**
   * Submits awaiting their answer now.
   * @example 3
   */
  @Integer()
  in_flight!: number;
  /** @example null */
  @ApiProperty({ type: String, nullable: true })
  last_error!: string | null;
  /**
   * When its health last changed.
   * @example "2026-11-22T08:00:00.000Z"
   */
  @DateTime()
  since!: string;
}
