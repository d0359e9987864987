import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('contact_group')
export class Group {
  @IdPrimaryColumn('id')
  id!: string;

  @IdColumn('account_id')
  accountId!: string;

  @TextColumn('name')
  name!: string;

  /** The name as uniqueness compares it (case folded). */
  @TextColumn('name_key')
  nameKey!: string;

  @TextColumn('description', { nullable: true })
  description!: string | null;

  @Column({ name: 'contact_count', type: 'int' })
  contactCount!: number;

  @IdColumn('created_by', { nullable: true })
  createdBy!: string | null;

  @TimeColumn('created_at')
  createdAt!: Date;

  @TimeColumn('updated_at')
  updatedAt!: Date;
}
