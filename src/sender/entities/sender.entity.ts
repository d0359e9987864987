import { Entity } from 'typeorm';
import { FlagColumn, IdColumn, IdPrimaryColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('sender')
export class Sender {
  @IdPrimaryColumn('id')
  id!: string;

  @IdColumn('account_id')
  accountId!: string;

  @TextColumn('name')
  name!: string;

  /** Lower-cased name: senders are matched without case. */
  @TextColumn('name_key')
  nameKey!: string;

  @TextColumn('email', { nullable: true })
  email!: string | null;

  @TextColumn('phone', { nullable: true })
  phone!: string | null;

  @FlagColumn('is_default')
  isDefault!: boolean;

  @TimeColumn('created_at')
  createdAt!: Date;
}
