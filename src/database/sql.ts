import type { QueryRunner } from 'typeorm';

export type Dialect = 'sqlite' | 'mysql';

type Param = string | number | boolean | Date | null | undefined;

/**
 * One connection's worth of plain SQL with `?` placeholders, portable between
 * SQLite and MySQL. Repositories use it where an intention-revealing statement
 * (a conditional update, a locking read) says more than the entity API.
 */
export class Sql {
  constructor(
    readonly dialect: Dialect,
    private readonly runner: QueryRunner,
  ) {}

  get manager() {
    return this.runner.manager;
  }

  /** ` FOR UPDATE` on MySQL; SQLite has a single writer and needs no row lock. */
  get forUpdate(): string {
    return this.dialect === 'mysql' ? ' FOR UPDATE' : '';
  }

  async all<T>(query: string, params: readonly Param[] = []): Promise<T[]> {
    const result = await this.runner.query(query, params.map(this.bind), true);
    return result.records as T[];
  }

  async get<T>(query: string, params: readonly Param[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(query, params);
    return rows[0];
  }

  /** Runs a write and returns how many rows it matched. */
  async run(query: string, params: readonly Param[] = []): Promise<number> {
    const result = await this.runner.query(query, params.map(this.bind), true);
    return result.affected ?? 0;
  }

  /** MySQL: the value the statement gave to `LAST_INSERT_ID(expr)`. */
  async insertId(query: string, params: readonly Param[] = []): Promise<number> {
    const result = await this.runner.query(query, params.map(this.bind), true);
    return Number((result.raw as { insertId?: number | string }).insertId ?? 0);
  }

  /** Inserts one row, or nothing when a row with the same unique key exists. */
  async insertIfAbsent(table: string, row: Record<string, Param>): Promise<number> {
    const columns = Object.keys(row);
    const placeholders = columns.map(() => '?').join(', ');
    const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders})`;
    const query =
      this.dialect === 'mysql'
        ? `${insert} ON DUPLICATE KEY UPDATE ${columns[0]} = ${columns[0]}`
        : `${insert} ON CONFLICT DO NOTHING`;
    return this.run(query, Object.values(row));
  }

  async insert(table: string, row: Record<string, Param>): Promise<void> {
    const columns = Object.keys(row);
    await this.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      Object.values(row),
    );
  }

  private readonly bind = (value: Param): unknown => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return this.dialect === 'mysql' ? value : toSqliteTime(value);
    return value;
  };
}

/** SQLite keeps times as UTC text with milliseconds, as TypeORM does for `datetime` columns. */
const toSqliteTime = (date: Date): string => date.toISOString().slice(0, 23).replace('T', ' ');

/** A time read back from either database. */
export function readTime(value: string | Date): Date;
export function readTime(value: string | Date | null): Date | null;
export function readTime(value: string | Date | null): Date | null {
  if (value === null) return null;
  if (value instanceof Date) return value;
  return new Date(`${value.replace(' ', 'T')}Z`);
}

/** A boolean read back from either database (SQLite and MySQL both answer 0/1). */
export const readBoolean = (value: unknown): boolean => value === true || value === 1 || value === '1';
