import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CHARGED_FOR, LEDGER_KINDS, type ChargedFor, type LedgerKind } from '../../billing/ledger.repository.js';
import { CreatedRangeQueryDto } from '../../common/list/list-query.dto.js';
import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';

export class LedgerQueryDto extends CreatedRangeQueryDto {
  @ApiPropertyOptional({ enum: LEDGER_KINDS, description: 'Rows of this type only' })
  @IsOptional()
  @IsIn(LEDGER_KINDS, { message: Messages.oneOf(LEDGER_KINDS) })
  type?: LedgerKind;

  @ApiPropertyOptional({ type: String, maxLength: 64, example: '01JD3Q5W0Z6Y7X8V9T0S1R2Q3P', description: 'Rows about this record or lot only (an OTP or SMS `uniq_id`, a lot)' })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MaxLength(64, { message: Messages.maxLength(64) })
  reference_id?: string;
}

/** A row of the account's ledger: every change of the balance, append-only; the balance is their sum. */
export class LedgerEntryDto {
  /** Grows with every row of the service @example 4211 */
  @Integer()
  id!: number;
  @ApiProperty({
    enum: LEDGER_KINDS,
    example: 'debit',
    description: '`opening`: the balance the account was created with; `debit`: a send; `refund`: a message that failed or was cancelled; `credit`: money added by the operator',
  })
  type!: LedgerKind;
  /** Signed, in the account currency: negative for a debit @example -2.5 */
  amount!: number;
  /** The balance right after this row @example 997.5 */
  balance_after!: number;
  @ApiProperty({ enum: CHARGED_FOR, example: 'otp', description: 'What the row is for; `admin` for changes made by the operator' })
  reference_type!: ChargedFor;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10',
    description: 'The OTP or SMS `uniq_id` debited or refunded, or the lot of a bulk send; null for an operator change',
  })
  reference_id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '01JD3Q5W0Z6Y7X8V9T0S1R2Q3P', description: 'The lot of the messages debited' })
  lot!: string | null;
  /** In French: what the operator wrote about a credit, else what the row is @example "Envoi d'un code OTP" */
  description!: string;
  /** The user whose request made the change; null for the service itself (refunds of failed messages) and the operator @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.120Z" */
  @DateTime()
  created_at!: string;
}
