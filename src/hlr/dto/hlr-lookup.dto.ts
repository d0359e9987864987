import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { REACHABILITIES, type Reachability } from '../hlr-provider.js';
import { HLR_STATUSES, type HlrStatus } from '../hlr-lookup.repository.js';

export const HLR_REJECTION_REASONS = ['numero_invalide', 'destination_non_prise_en_charge', 'doublon'] as const;
export type HlrRejectionReason = (typeof HLR_REJECTION_REASONS)[number];

export class HlrQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ example: '01JN8Y6ZQ4W3T2M5R7K9X1C0VB', description: 'Lookups of this lot only' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(64, { message: Messages.maxLength(64) })
  lot?: string;

  @ApiPropertyOptional({ enum: HLR_STATUSES, example: 'completed', description: 'Lookups in this status only' })
  @IsOptional()
  @IsIn(HLR_STATUSES, { message: Messages.oneOf(HLR_STATUSES) })
  status?: HlrStatus;
}

/** One number looked up: pending until the provider answered, then its answer. */
export class HlrLookupDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  company_id!: string;
  /** The request's lot @example "01JN8Y6ZQ4W3T2M5R7K9X1C0VB" */
  lot!: string;
  /** @example "verif-4821" */
  external_id!: string | null;
  /** E.164 @example "+2250707070707" */
  number!: string;
  @ApiProperty({
    enum: HLR_STATUSES,
    example: 'completed',
    description: '`failed`: the lookup itself failed (vendor error or timeout) and was refunded; an answer such as `absent` is `completed`',
  })
  status!: HlrStatus;
  @ApiProperty({ type: Boolean, nullable: true, example: true, description: 'Whether the number is in a range in use; null while pending or unknown' })
  valid!: boolean | null;
  @ApiProperty({
    enum: REACHABILITIES,
    nullable: true,
    example: 'reachable',
    description: 'The subscriber as the network sees it (Vonage Number Insight values); `unknown` from the `local` provider, null while pending',
  })
  reachable!: Reachability | null;
  @ApiProperty({ type: Boolean, nullable: true, example: false, description: 'Moved to another network than its range was allocated to; null when unknown' })
  ported!: boolean | null;
  @ApiProperty({ type: Boolean, nullable: true, example: false, description: 'Served abroad now; null when unknown' })
  roaming!: boolean | null;
  /** ISO 3166-1 alpha-2 @example "CI" */
  country!: string | null;
  /** The network serving the number now, MCC + MNC @example "61203" */
  mccmnc!: string | null;
  /** @example "612" */
  mcc!: string | null;
  /** @example "03" */
  mnc!: string | null;
  /** @example "Orange Côte d'Ivoire" */
  network_name!: string | null;
  /** The network the number's range was allocated to @example "61203" */
  original_mccmnc!: string | null;
  /** @example "Orange Côte d'Ivoire" */
  original_network_name!: string | null;
  /** @example null */
  roaming_country!: string | null;
  /** @example null */
  roaming_mccmnc!: string | null;
  /** `local`, `vonage`, or `sandbox` for a sandbox key's lookups @example "local" */
  provider!: string | null;
  /** The vendor's request id @example null */
  provider_id!: string | null;
  /** The vendor's status text; from `local`, the number type (MOBILE, FIXED_LINE…) @example "MOBILE" */
  provider_status!: string | null;
  /** Why a `failed` lookup failed @example null */
  error!: string | null;
  /** Charged for this number (0 with a sandbox key; refunded when failed) @example 10 */
  amount!: number;
  /** @example null */
  webhook_url!: string | null;
  /** The last webhook attempt for its event, as compact JSON @example null */
  webhook_response!: string | null;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
  /** @example "2026-11-22T08:00:01.250Z" */
  @DateTime(true)
  done_at!: string | null;
  /** Made with a sandbox (`mk_test_`) key @example false */
  sandbox!: boolean;
}

export class AcceptedLookupDto {
  /** @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10" */
  @Uuid()
  id!: string;
  /** @example "+2250707070707" */
  number!: string;
  @ApiProperty({ enum: ['pending'], example: 'pending' })
  status!: 'pending';
  /** @example 10 */
  amount!: number;
}

export class RejectedNumberDto {
  /** The number as given @example "+22507" */
  number!: string;
  @ApiProperty({ enum: HLR_REJECTION_REASONS, example: 'numero_invalide' })
  reason!: HlrRejectionReason;
}

/** What `POST /hlr` accepted (each a pending lookup) and refused. */
export class HlrBatchDto {
  /** @example "01JN8Y6ZQ4W3T2M5R7K9X1C0VB" */
  lot!: string;
  /** Lookups accepted @example 2 */
  @Integer()
  count!: number;
  /** Debited (0 with a sandbox key) @example 20 */
  amount!: number;
  /** Balance after the debit @example 980 */
  balance!: number;
  @ApiProperty({ type: [AcceptedLookupDto] })
  lookups!: AcceptedLookupDto[];
  @ApiProperty({ type: [RejectedNumberDto], description: 'Numbers refused one by one; none is stored or charged' })
  rejected!: RejectedNumberDto[];
}
