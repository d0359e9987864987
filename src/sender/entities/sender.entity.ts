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

  /** The name key while pending or approved, unique in the account; null once rejected. */
  @TextColumn('active_key', { nullable: true })
  activeKey!: string | null;

  /** pending, approved or rejected. */
  @TextColumn('status')
  status!: string;

  @TextColumn('use_case', { nullable: true })
  useCase!: string | null;

  @TextColumn('sample_message', { nullable: true })
  sampleMessage!: string | null;

  /** ISO-2 codes separated by commas; null: every country. */
  @TextColumn('countries', { nullable: true })
  countries!: string | null;

  @TextColumn('email', { nullable: true })
  email!: string | null;

  @TextColumn('phone', { nullable: true })
  phone!: string | null;

  @FlagColumn('is_default')
  isDefault!: boolean;

  @TextColumn('rejection_reason', { nullable: true })
  rejectionReason!: string | null;

  @IdColumn('created_by', { nullable: true })
  createdBy!: string | null;

  @TimeColumn('created_at')
  createdAt!: Date;

  @TimeColumn('reviewed_at', { nullable: true })
  reviewedAt!: Date | null;
}
