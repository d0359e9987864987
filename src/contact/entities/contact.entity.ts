import { Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('contact')
export class Contact {
  @IdPrimaryColumn('id')
  id!: string;

  @IdColumn('account_id')
  accountId!: string;

  @TextColumn('name', { nullable: true })
  name!: string | null;

  @TextColumn('email', { nullable: true })
  email!: string | null;

  /** E.164. */
  @TextColumn('phone', { nullable: true })
  phone!: string | null;

  @IdColumn('created_by', { nullable: true })
  createdBy!: string | null;

  @TimeColumn('created_at')
  createdAt!: Date;
}
