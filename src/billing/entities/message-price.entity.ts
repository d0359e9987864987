import { Entity } from 'typeorm';
import { IdPrimaryColumn, MoneyColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('message_price')
export class MessagePrice {
  @IdPrimaryColumn('id')
  id!: string;

  @TextColumn('channel')
  channel!: 'SMS' | 'EMAIL';

  /** Country calling code with its `+`, or `*` for every other destination. */
  @TextColumn('dial_code')
  dialCode!: string;

  @TextColumn('description')
  description!: string;

  /** Hundredths, per SMS segment or per e-mail. */
  @MoneyColumn('amount')
  amount!: number;

  @TimeColumn('created_at')
  createdAt!: Date;
}
