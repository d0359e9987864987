import type { EntityManager } from 'typeorm';
import type { Param } from '../common/sql-param.js';
import type { Statement, Statements } from './statements.js';

export type { Param };

export type Dialect = 'sqlite' | 'mysql';

/**
 * One connection's worth of plain SQL with `?` placeholders, portable between
 * SQLite and MySQL. Repositories use it where an intention-revealing statement
 * (a conditional update, a locking read) says more than the entity API.
 */
export class Sql {
  private waiting: Statement[] = [];
  /** Reads whose rows are wanted once the unit has committed, each sent just before or just after the COMMIT. */
  private readsWithCommit: Array<{ statement: Statement; into: { rows: unknown[] }; after: boolean }> = [];

  constructor(
    readonly dialect: Dialect,
    private readonly statements: Statements,
    private readonly manager: EntityManager,
  ) {}

  /**
   * The ORM on the same connection, for the entity API on cold paths. The
   * writes still waiting (the start of the transaction among them) are sent
   * first, so that what the ORM does happens after them, in the same unit of work.
   */
  async orm(): Promise<EntityManager> {
    await this.flush();
    return this.manager;
  }

  /** `INSERT` that leaves a row whose key exists; the count of changed rows is the count inserted. */
  get insertIgnore(): string {
    return this.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  }

  /** ` FOR UPDATE` on MySQL; SQLite has a single writer and needs no row lock. */
  get forUpdate(): string {
    return this.dialect === 'mysql' ? ' FOR UPDATE' : '';
  }

  /** A join that reads its left side first: MariaDB's STRAIGHT_JOIN, SQLite's CROSS JOIN (either takes an ON). */
  get joinInOrder(): string {
    return this.dialect === 'mysql' ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
  }

  /**
   * `table AS alias`, read through `index` only: MariaDB's FORCE INDEX, SQLite's INDEXED BY (an error rather than
   * reading the table whole), in a SELECT's FROM or as an UPDATE's table.
   */
  indexed(table: string, alias: string, index: string): string {
    return this.dialect === 'mysql' ? `${table} AS ${alias} FORCE INDEX (${index})` : `${table} AS ${alias} INDEXED BY ${index}`;
  }

  async all<T>(query: string, params: readonly Param[] = []): Promise<T[]> {
    return (await this.statements.all(query, params.map(this.bind), this.takeWaiting())) as T[];
  }

  /** The rows of each query, in order: on MySQL in one round trip, so that a locking read and the reads it guards cost one. */
  async allEach<T extends unknown[][]>(...queries: Array<[query: string, params: readonly Param[]]>): Promise<T> {
    const statements = queries.map(([query, params]) => ({ query, params: params.map(this.bind) }));
    return (await this.statements.allEach(statements, this.takeWaiting())) as T;
  }

  async get<T>(query: string, params: readonly Param[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(query, params);
    return rows[0];
  }

  /** Runs a write and returns how many rows it matched. */
  async run(query: string, params: readonly Param[] = []): Promise<number> {
    return (await this.statements.write(query, params.map(this.bind), this.takeWaiting())).changes;
  }

  /** MySQL: the value the statement gave to `LAST_INSERT_ID(expr)`. */
  async insertId(query: string, params: readonly Param[] = []): Promise<number> {
    return (await this.statements.write(query, params.map(this.bind), this.takeWaiting())).insertId;
  }

  /**
   * A write whose result is not needed: on MySQL it waits and travels with the
   * next statement (or the commit) in one round trip; on SQLite it runs now.
   * Its failure surfaces there, and fails the unit of work.
   */
  async later(query: string, params: readonly Param[] = []): Promise<void> {
    if (this.statements.batches) this.waiting.push({ query, params: params.map(this.bind) });
    else await this.statements.write(query, params.map(this.bind), []);
  }

  /** Sends the writes still waiting. */
  async flush(): Promise<void> {
    const waiting = this.takeWaiting();
    const last = waiting.pop();
    if (last) await this.statements.write(last.query, last.params, waiting);
  }

  /**
   * MySQL: opens the transaction with the first statement, in its round trip
   * (where statements batch). SQLite's units of work open their own, so
   * nothing is done there.
   */
  async begin(): Promise<void> {
    if (this.dialect === 'mysql') await this.later(START_TRANSACTION);
  }

  /**
   * MySQL: sends the writes still waiting, the reads wanted with the commit and the commit, in one round trip (where
   * statements batch); nothing when nothing was done.
   */
  async commit(): Promise<void> {
    const reads = this.readsWithCommit;
    this.readsWithCommit = [];
    if (reads.length > 0) {
      const ordered = [...reads.filter((read) => !read.after), null, ...reads.filter((read) => read.after)];
      const results = await this.statements.allEach(
        ordered.map((read) => read?.statement ?? { query: 'COMMIT', params: [] }),
        this.takeWaiting(),
      );
      for (const [index, read] of ordered.entries()) if (read) read.into.rows = results[index]!;
      return;
    }
    if (this.waiting.length === 1 && this.waiting[0]!.query === START_TRANSACTION) this.waiting = [];
    else if (this.dialect === 'mysql') await this.later('COMMIT');
    await this.flush();
  }

  /**
   * A read of the unit's last state, whose rows are wanted once the unit has committed: on MySQL it travels with the
   * commit, just before it (its rows are there once `commit` has returned); on SQLite it is read now, the same state.
   */
  readAtCommit<T>(query: string, params: readonly Param[] = []): Promise<{ rows: T[] }> {
    return this.readWithCommit(query, params, false);
  }

  /**
   * A read of what is committed once the unit has committed, others' work included: on MySQL it travels with the
   * commit, just after it. On SQLite it is read now, in the unit: its transaction holds the write lock from its start
   * to its commit, so no other write can come between the read and the commit.
   */
  readAfterCommit<T>(query: string, params: readonly Param[] = []): Promise<{ rows: T[] }> {
    return this.readWithCommit(query, params, true);
  }

  private async readWithCommit<T>(query: string, params: readonly Param[], after: boolean): Promise<{ rows: T[] }> {
    if (this.dialect === 'sqlite') return { rows: await this.all<T>(query, params) };
    const into = { rows: [] as T[] };
    this.readsWithCommit.push({ statement: { query, params: params.map(this.bind) }, into, after });
    return into;
  }

  /** Forgets the writes and reads still waiting (the unit of work is being rolled back). */
  discard(): void {
    this.waiting = [];
    this.readsWithCommit = [];
  }

  /** Inserts one row, or nothing when a row with the same unique key exists (see `later`). */
  async insertLaterIfAbsent(table: string, row: Record<string, Param>): Promise<void> {
    const first = Object.keys(row)[0];
    const insert = insertStatement(table, row);
    await this.later(this.dialect === 'mysql' ? `${insert} ON DUPLICATE KEY UPDATE ${first} = ${first}` : `${insert} ON CONFLICT DO NOTHING`, Object.values(row));
  }

  /**
   * Inserts rows of the same columns in one statement, leaving each row whose
   * unique key exists, and says whether every row was inserted. SQLite counts
   * the rows it inserts; MySQL counts a row it finds as a row changed, and
   * tells the two apart only in its note on several rows, so that one row
   * alone is never known to be new there.
   */
  async insertAllIfAbsent(table: string, columns: readonly string[], rows: ReadonlyArray<readonly Param[]>): Promise<boolean> {
    const insert = multiRowInsert(table, columns, rows.length);
    const params: unknown[] = [];
    for (const row of rows) for (const value of row) params.push(this.bind(value));
    if (this.dialect === 'sqlite') return (await this.statements.write(`${insert} ON CONFLICT DO NOTHING`, params, this.takeWaiting())).changes === rows.length;
    const { duplicates } = await this.statements.write(`${insert} ON DUPLICATE KEY UPDATE ${columns[0]} = ${columns[0]}`, params, this.takeWaiting());
    return duplicates === 0;
  }

  async insert(table: string, row: Record<string, Param>): Promise<void> {
    await this.run(insertStatement(table, row), Object.values(row));
  }

  /** An insert whose result is not needed (see `later`). */
  async insertLater(table: string, row: Record<string, Param>): Promise<void> {
    await this.later(insertStatement(table, row), Object.values(row));
  }

  /**
   * Inserts rows of the same columns in multi-row statements (see `later`),
   * each within both databases' limit on parameters. Statements hold a power
   * of two of rows, so that few distinct texts reach the statement caches.
   */
  async insertManyLater(table: string, rows: ReadonlyArray<Record<string, Param>>): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const most = 2 ** Math.floor(Math.log2(Math.max(1, MAX_PARAMETERS / columns.length)));
    for (let start = 0; start < rows.length; ) {
      const size = Math.min(most, 2 ** Math.floor(Math.log2(rows.length - start)));
      // a bulk send binds tens of thousands of values: one loop, without an array per row
      const params: unknown[] = new Array(size * columns.length);
      let next = 0;
      for (let index = start; index < start + size; index++) {
        const row = rows[index]!;
        for (const column of columns) params[next++] = this.bind(row[column]);
      }
      start += size;
      await this.laterBound(multiRowInsert(table, columns, size), params);
    }
  }

  /**
   * `later` for parameters already bound. A statement of many rows goes at
   * once, with the writes waiting before it: joined with the next ones, the
   * statements of a bulk send would make one text of megabytes, built and
   * formatted whole in the driver (a 10,000-recipient send took a process
   * with 128 MB of heap to its limit on MariaDB).
   */
  private async laterBound(query: string, params: unknown[]): Promise<void> {
    if (this.statements.batches && params.length < WRITTEN_AT_ONCE) this.waiting.push({ query, params });
    else await this.statements.write(query, params, this.takeWaiting());
  }

  private takeWaiting(): Statement[] {
    if (this.waiting.length === 0) return NOTHING_WAITING;
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }

  private readonly bind = (value: Param): unknown => bindParam(this.dialect, value);
}

const NOTHING_WAITING: Statement[] = [];

/** A parameter as the driver takes it: undefined as null; on SQLite, booleans as 0/1 and times as UTC text. */
export function bindParam(dialect: Dialect, value: Param): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return dialect === 'mysql' ? value : toSqliteTime(value);
  return value;
}
/** Under SQLite's 32,766 and MySQL's 65,535 parameters per statement, with room to spare. */
const MAX_PARAMETERS = 30_000;
/** A statement with this many parameters does not wait for the next one (see `laterBound`). */
const WRITTEN_AT_ONCE = 5_000;
const START_TRANSACTION = 'START TRANSACTION';

/** Multi-row insert texts by table, columns and row count: a bulk send would otherwise build and hash them anew. */
const multiRowTexts = new Map<string, string>();

export function multiRowInsert(table: string, columns: readonly string[], rows: number): string {
  const key = `${table}|${rows}|${columns.join(',')}`;
  let text = multiRowTexts.get(key);
  if (text === undefined) {
    const tuple = `(${placeholders(columns)})`;
    text = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
    multiRowTexts.set(key, text);
  }
  return text;
}

/** The last insert text built for each table, with its columns. */
const insertTexts = new Map<string, { columns: string[]; text: string }>();

/**
 * The same text object for the same table and columns: statements are kept
 * by their text, and a string built anew would be hashed anew at every look-up.
 */
function insertStatement(table: string, row: Record<string, Param>): string {
  const columns = Object.keys(row);
  const known = insertTexts.get(table);
  if (known && known.columns.length === columns.length && known.columns.every((column, index) => column === columns[index])) {
    return known.text;
  }
  const text = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders(columns)})`;
  insertTexts.set(table, { columns, text });
  return text;
}

const DAY_MS = 86_400_000;
let formattedDay = NaN;
let dayPrefix = '';
let lastTime = NaN;
let lastText = '';
let previousTime = NaN;
let previousText = '';

/**
 * SQLite keeps times as UTC text with milliseconds (`YYYY-MM-DD HH:MM:SS.mmm`),
 * as TypeORM does for `datetime` columns. A request binds a dozen times, and
 * toISOString would cost more than the rest of the binding: the date part is
 * formatted once a day, the time of day by arithmetic.
 */
export function toSqliteTime(date: Date): string {
  const ms = date.getTime();
  // the rows of one bulk write share their few times
  if (ms === lastTime) return lastText;
  if (ms === previousTime) return previousText;
  const day = Math.floor(ms / DAY_MS);
  if (day !== formattedDay) {
    dayPrefix = date.toISOString().slice(0, 11).replace('T', ' ');
    formattedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  [previousTime, previousText] = [lastTime, lastText];
  lastTime = ms;
  lastText = `${dayPrefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${String(millis).padStart(3, '0')}`;
  return lastText;
}

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : String(value));

/** A time read back from either database. */
export function readTime(value: string | Date): Date;
export function readTime(value: string | Date | null): Date | null;
export function readTime(value: string | Date | null): Date | null {
  if (value === null) return null;
  if (value instanceof Date) return value;
  return new Date(`${value.replace(' ', 'T')}Z`);
}

/** `?, ?, ?` for an `IN (…)` list of these values. */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/** A boolean read back from either database (SQLite and MySQL both answer 0/1). */
export const readBoolean = (value: unknown): boolean => value === true || value === 1 || value === '1';
