import type { QueryRunner, TableColumnOptions } from 'typeorm';

type Extra = Partial<TableColumnOptions>;

/**
 * Column shapes that mean the same on both databases, for migrations: UUIDs and
 * codes compare exactly (binary collation on MySQL), times keep milliseconds,
 * money is an integer of hundredths.
 */
export function columnsFor(runner: QueryRunner) {
  const mysql = runner.connection.driver.options.type === 'mysql';
  const binary = mysql ? { charset: 'ascii', collation: 'ascii_bin' } : {};
  const binaryText = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
  return {
    id: (name: string, extra: Extra = {}): TableColumnOptions => ({
      name,
      type: mysql ? 'char' : 'varchar',
      length: '36',
      ...binary,
      ...extra,
    }),
    exact: (name: string, length: number, extra: Extra = {}): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      ...binary,
      ...extra,
    }),
    exactText: (name: string, length: number, extra: Extra = {}): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      ...binaryText,
      ...extra,
    }),
    text: (name: string, length: number, extra: Extra = {}): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      ...extra,
    }),
    money: (name: string): TableColumnOptions => ({ name, type: 'bigint', default: 0 }),
    flag: (name: string): TableColumnOptions => ({ name, type: 'boolean', default: 0 }),
    time: (name: string, extra: Extra = {}): TableColumnOptions => ({
      name,
      type: 'datetime',
      precision: mysql ? 3 : undefined,
      ...extra,
    }),
    serial: (name: string): TableColumnOptions => ({
      name,
      type: mysql ? 'bigint' : 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    }),
  };
}
