import { Column, Entity } from 'typeorm';
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

  /** E.164, unique in the account. */
  @TextColumn('phone')
  phone!: string;

  /** ISO 3166-1 alpha-2, from the phone. */
  @TextColumn('country', { nullable: true })
  country!: string | null;

  @TextColumn('language')
  language!: string;

  /** JSON object of text values. */
  @Column({ name: 'attributes', type: 'text', nullable: true })
  attributes!: string | null;

  /** The name as search compares it (accents and case ignored). */
  @TextColumn('search_name', { nullable: true })
  searchName!: string | null;

  /** The e-mail address lower-cased. */
  @TextColumn('search_email', { nullable: true })
  searchEmail!: string | null;

  @IdColumn('created_by', { nullable: true })
  createdBy!: string | null;

  @TimeColumn('created_at')
  createdAt!: Date;

  @TimeColumn('updated_at')
  updatedAt!: Date;
}
