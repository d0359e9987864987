import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, MoneyColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('account')
export class Account {
  @IdPrimaryColumn('id')
  id!: string;

  @TextColumn('name')
  name!: string;

  @TextColumn('email', { nullable: true })
  email!: string | null;

  @TextColumn('phone', { nullable: true })
  phone!: string | null;

  /** Hundredths of the account currency. */
  @MoneyColumn('balance')
  balance!: number;

  @TextColumn('address', { nullable: true })
  address!: string | null;

  @TextColumn('logo_url', { nullable: true })
  logoUrl!: string | null;

  @Column({ name: 'country_id', type: 'int', nullable: true })
  countryId!: number | null;

  @IdColumn('created_by', { nullable: true })
  createdBy!: string | null;

  @TimeColumn('created_at')
  createdAt!: Date;
}
