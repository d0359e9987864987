import { Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('user')
export class User {
  @IdPrimaryColumn('id')
  id!: string;

  @IdColumn('account_id')
  accountId!: string;

  @TextColumn('name')
  name!: string;

  @TextColumn('email', { nullable: true })
  email!: string | null;

  /** Set when the user is deleted; its tokens and keys stop working. */
  @TimeColumn('deleted_at', { nullable: true })
  deletedAt!: Date | null;

  @TimeColumn('created_at')
  createdAt!: Date;
}
