import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, ValidateIf } from 'class-validator';
import { DateTime } from '../../common/openapi/formats.js';
import { toHundredths } from '../../common/money.js';
import { rule } from '../../common/validation/rule.js';
import { Messages } from '../../common/validation/messages.js';

export const MAX_THRESHOLD = 1_000_000_000;

/** The account's balance (SPEC-2 §1.6). */
export class BalanceDto {
  /** In the account currency, 2 decimals @example 1250.5 */
  balance!: number;
  /** ISO 4217 @example "XOF" */
  currency!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 500,
    description: '`balance.low` is sent when a debit takes the balance from at or above this amount to below it; null: no alert',
  })
  low_balance_threshold!: number | null;
  /**
   * When the balance last changed (its latest ledger row), or when the account was created
   * @example "2026-11-22T08:00:00.120Z"
   */
  @DateTime()
  updated_at!: string;
}

const IsThreshold = rule(
  'isThreshold',
  (value) => typeof value === 'number' && value >= 0 && value <= MAX_THRESHOLD && toHundredths(value) !== null,
  () => `doit être un montant entre 0 et ${MAX_THRESHOLD} avec au plus 2 décimales`,
  { minimum: 0, maximum: MAX_THRESHOLD, multipleOf: 0.01 },
);

export class SetBalanceAlertDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 500,
    description: 'Amount in the account currency (at most 2 decimals); null removes the alert',
  })
  @IsDefined({ message: Messages.required })
  @ValidateIf((_, value) => value !== null)
  @IsThreshold()
  threshold!: number | null;
}
