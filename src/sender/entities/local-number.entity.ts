import { Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TextColumn, TimeColumn } from '../../database/columns.js';

/** A number an account owns in one country, used when a send asks for `use_local_number`. */
@Entity('local_number')
export class LocalNumber {
  @IdPrimaryColumn('id')
  id!: string;

  @IdColumn('account_id')
  accountId!: string;

  /** Country calling code with its `+`, for example `+225`. */
  @TextColumn('dial_code')
  dialCode!: string;

  /** E.164. */
  @TextColumn('number')
  number!: string;

  @TimeColumn('created_at')
  createdAt!: Date;
}
