import { ApiProperty } from '@nestjs/swagger';
import { Integer } from '../../common/openapi/formats.js';

export class RouteMatchDto {
  @ApiProperty({ type: [String], description: 'E.164 beginnings; empty: any', example: ['+22507', '+22508'] })
  prefixes!: string[];
  @ApiProperty({ type: [String], description: 'Networks (MCC-MNC) from stored HLR answers; empty: any', example: [] })
  mccmnc!: string[];
  @ApiProperty({ type: [String], description: 'Account ids; empty: any', example: [] })
  accounts!: string[];
  /** @example "any" */
  @ApiProperty({ enum: ['otp', 'bulk', 'any'] })
  traffic!: 'otp' | 'bulk' | 'any';
}

export class RouteTargetDto {
  /** @example "orange-ci" */
  connector!: string;
  /**
   * Whether it can take a message now (see `GET /v1/admin/connectors`).
   * @example true
   */
  healthy!: boolean;
  /**
   * What the operator pays the supplier per part; null when not set.
   * @example 0.012
   */
  @ApiProperty({ type: Number, nullable: true })
  cost!: number | null;
  /** @example 1 */
  @Integer()
  weight!: number;
}

/** A route of the routing table in force, first match wins. */
export class RouteDto {
  /** @example "ci-orange" */
  name!: string;
  @ApiProperty({ type: RouteMatchDto })
  match!: RouteMatchDto;
  /** @example "failover" */
  @ApiProperty({ enum: ['failover', 'round_robin', 'least_cost'] })
  strategy!: 'failover' | 'round_robin' | 'least_cost';
  @ApiProperty({ type: [RouteTargetDto] })
  targets!: RouteTargetDto[];
}

/** What a message to a number would take now. */
export class RouteResolutionDto {
  /**
   * The name of the route it matches; null when none does (it would be refused at acceptance).
   * @example "ci-orange"
   */
  @ApiProperty({ type: String, nullable: true })
  route!: string | null;
  @ApiProperty({ type: [RouteTargetDto] })
  targets!: RouteTargetDto[];
  /**
   * The connector that would take it now; null when no route matches or no target can take it.
   * @example "orange-ci"
   */
  @ApiProperty({ type: String, nullable: true })
  chosen!: string | null;
  /**
   * The number's network from a stored HLR answer, when one is young enough to route by.
   * @example null
   */
  @ApiProperty({ type: String, nullable: true })
  mccmnc!: string | null;
}
