import { Column, PrimaryColumn, type ColumnOptions } from 'typeorm';

/**
 * Column decorators matching the migrations: UUID strings, millisecond UTC
 * times and integer money, read back as the same types on both databases.
 */
const toNumber = { to: (value: number) => value, from: (value: string | number | null) => (value === null ? null : Number(value)) };

export const IdPrimaryColumn = (name: string) => PrimaryColumn({ name, type: 'varchar', length: 36 });

export const IdColumn = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'varchar', length: 36, ...options });

export const TimeColumn = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'datetime', ...options });

export const MoneyColumn = (name: string) => Column({ name, type: 'bigint', transformer: toNumber });

export const TextColumn = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'varchar', ...options });

export const FlagColumn = (name: string) => Column({ name, type: 'boolean' });
