import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { SENDER_STATUSES, type SenderStatus } from '../sender.repository.js';

/** A sender ID (the name SMS are sent from). */
export class SenderDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  company_id!: string;
  /** @example "MONAPP" */
  name!: string;
  @ApiProperty({ enum: SENDER_STATUSES, example: 'pending', description: 'Only an approved sender sends' })
  status!: SenderStatus;
  /** Used by sends that name no sender @example false */
  is_default!: boolean;
  /** @example "Codes de connexion et alertes de compte des clients de MonApp" */
  use_case!: string | null;
  /** @example "Votre code MonApp est 123456" */
  sample_message!: string | null;
  @ApiProperty({ type: [String], nullable: true, example: ['CI', 'SN'], description: 'ISO 3166-1 alpha-2 countries it is asked for; null: all' })
  countries!: string[] | null;
  /** @example null */
  email!: string | null;
  /** @example null */
  phone!: string | null;
  /** @example null */
  rejection_reason!: string | null;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
  /** When it was approved or rejected @example null */
  @DateTime(true)
  reviewed_at!: string | null;
}
