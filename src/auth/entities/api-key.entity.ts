import { Entity } from 'typeorm';
import { FlagColumn, IdColumn, IdPrimaryColumn, TextColumn, TimeColumn } from '../../database/columns.js';

@Entity('api_key')
export class ApiKey {
  @IdPrimaryColumn('id')
  id!: string;

  @IdColumn('user_id')
  userId!: string;

  @IdColumn('account_id')
  accountId!: string;

  /** SHA-256 of the key, hex; the key itself is never stored. */
  @TextColumn('key_hash')
  keyHash!: string;

  /** The first characters of the key, to recognise it in listings. */
  @TextColumn('prefix')
  prefix!: string;

  /** Sandbox key: never debits, never reaches a provider. */
  @FlagColumn('is_test')
  isTest!: boolean;

  @TimeColumn('revoked_at', { nullable: true })
  revokedAt!: Date | null;

  @TimeColumn('created_at')
  createdAt!: Date;
}
