import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../../common/list/list-query.dto.js';
import { toHundredths } from '../../common/money.js';
import { DateTime, Uuid } from '../../common/openapi/formats.js';
import { Messages } from '../../common/validation/messages.js';
import { rule } from '../../common/validation/rule.js';

export const MAX_CREDIT = 1_000_000_000;
const DESCRIPTION_LENGTH = 'doit faire de 1 à 255 caractères';

/** An account as the operator sees it. */
export class AdminAccountDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  id!: string;
  /** @example "Demo" */
  name!: string;
  /** @example "ops@acme.example" */
  email!: string | null;
  /** @example null */
  phone!: string | null;
  /** In the account currency, 2 decimals @example 1000 */
  balance!: number;
  /** ISO 4217 @example "XOF" */
  currency!: string;
  /** The account's owner user @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
}

export class AdminAccountQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    example: 'acme',
    description: "The account's id, or the start of its name or e-mail address (case ignored)",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MinLength(1, { message: 'doit faire de 1 à 100 caractères' })
  @MaxLength(100, { message: 'doit faire de 1 à 100 caractères' })
  q?: string;
}

const IsCreditAmount = rule(
  'isCreditAmount',
  (value) => typeof value === 'number' && value > 0 && value <= MAX_CREDIT && toHundredths(value) !== null,
  () => `doit être un montant supérieur à 0 et d'au plus ${MAX_CREDIT}, avec au plus 2 décimales`,
);

export class CreditAccountDto {
  @ApiProperty({
    type: Number,
    minimum: 0.01,
    maximum: MAX_CREDIT,
    example: 5000,
    description: 'Added to the balance, in the account currency, at most 2 decimals',
  })
  @IsDefined({ message: Messages.required })
  @IsCreditAmount()
  amount!: number;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 255,
    example: 'Virement reçu le 22 novembre',
    description: "Shown as the ledger row's `description`; default `Crédit du compte`",
  })
  @IsOptional()
  @IsString({ message: Messages.string })
  @MinLength(1, { message: DESCRIPTION_LENGTH })
  @MaxLength(255, { message: DESCRIPTION_LENGTH })
  description?: string;
}
