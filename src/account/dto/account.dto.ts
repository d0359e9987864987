import { DateTime, Integer, Uuid } from '../../common/openapi/formats.js';

/** The caller's account. */
export class AccountDto {
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  id!: string;
  /** @example "Demo" */
  name!: string;
  /**
   * Prepaid balance, in the account currency.
   * @example 1000
   */
  balance!: number;
  /** @example null */
  address!: string | null;
  /** @example null */
  logo_url!: string | null;
  /** @example null */
  @Integer(true)
  country_id!: number | null;
  /**
   * The account's owner user.
   * @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02"
   */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
}
