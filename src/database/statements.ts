import type { Database as SqliteConnection, Statement as SqliteStatement } from 'better-sqlite3';
import type { QueryRunner } from 'typeorm';

export interface WriteResult {
  /** Rows the statement matched. */
  changes: number;
  /** MySQL: the value given to LAST_INSERT_ID(). */
  insertId: number;
  /**
   * MySQL: the rows an insert of several rows found already there, from the
   * server's note on it ("Records: 500  Duplicates: 3  Warnings: 0"); null
   * where there is no such note (SQLite, a single row).
   */
  duplicates: number | null;
}

export interface Statement {
  query: string;
  params: unknown[];
}

/**
 * Executes SQL with `?` placeholders on one connection; parameters are already
 * bound to driver types. `before` holds writes sent ahead of the statement in
 * the same round trip, where the driver can.
 */
export interface Statements {
  /** Whether writes whose results are not needed may wait for the next statement (to share its round trip). */
  readonly batches: boolean;
  all(query: string, params: unknown[], before: Statement[]): Promise<unknown[]> | unknown[];
  /** The rows of each statement, in order; on MySQL all in one round trip. */
  allEach(statements: Statement[], before: Statement[]): Promise<unknown[][]> | unknown[][];
  write(query: string, params: unknown[], before: Statement[]): Promise<WriteResult> | WriteResult;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 straight, with prepared statements kept by their text: the
 * hot paths run a handful of statements per request, and going through the
 * ORM's query runner for each cost more than the statement itself. Parameters
 * are bound from their array (better-sqlite3 takes it whole), not spread into
 * arguments: a multi-row insert binds thousands.
 */
export class SqliteStatements implements Statements {
  readonly batches = false;
  private readonly cache = new Map<string, SqliteStatement>();

  constructor(private readonly connection: SqliteConnection) {}

  all(query: string, params: unknown[]): unknown[] {
    const statement = this.prepare(query);
    if (statement.reader) return statement.all(params);
    statement.run(params);
    return [];
  }

  allEach(statements: Statement[]): unknown[][] {
    return statements.map(({ query, params }) => this.all(query, params));
  }

  write(query: string, params: unknown[]): WriteResult {
    const statement = this.prepare(query);
    if (statement.reader) return { changes: statement.all(params).length, insertId: 0, duplicates: null };
    const result = statement.run(params);
    return { changes: result.changes, insertId: Number(result.lastInsertRowid), duplicates: null };
  }

  private prepare(query: string): SqliteStatement {
    let statement = this.cache.get(query);
    if (!statement) {
      statement = this.connection.prepare(query);
      if (this.cache.size >= STATEMENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(query, statement);
    }
    return statement;
  }
}

/**
 * Through a TypeORM query runner (a pooled mysql2 connection opened with
 * `multipleStatements`): the writes waiting in `before` go in the same round
 * trip as the statement, as one multi-statement query. Every value is bound
 * with a placeholder, never spliced into the text.
 *
 * Not on a Galera node (`batches` false there): a transaction that loses a
 * conflict to a replicated write is aborted by the replication, and when
 * that happens between two statements of one multi-statement query, the
 * server runs the rest of the query outside any transaction (each statement
 * committed on its own, a COMMIT among them answering OK). One statement per
 * round trip, the abort is reported (error 1213) by the next one.
 */
export class RunnerStatements implements Statements {
  private connection: Promise<CallbackConnection> | undefined;

  constructor(
    private readonly runner: QueryRunner,
    readonly batches = true,
  ) {}

  async all(query: string, params: unknown[], before: Statement[]): Promise<unknown[]> {
    return (await this.send(query, params, before)) as unknown[];
  }

  async allEach(statements: Statement[], before: Statement[]): Promise<unknown[][]> {
    if (!this.batches) {
      const rows: unknown[][] = [];
      for (const { query, params } of statements) rows.push((await this.results([{ query, params }]))[0] as unknown[]);
      return rows;
    }
    return (await this.results([...before, ...statements])).slice(before.length) as unknown[][];
  }

  async write(query: string, params: unknown[], before: Statement[]): Promise<WriteResult> {
    const result = (await this.send(query, params, before)) as { affectedRows?: number; insertId?: number | string; info?: string };
    const duplicates = /Duplicates: (\d+)/.exec(result.info ?? '')?.[1];
    return { changes: result.affectedRows ?? 0, insertId: Number(result.insertId ?? 0), duplicates: duplicates === undefined ? null : Number(duplicates) };
  }

  /**
   * Ends the transaction without its changes. A connection that cannot say so
   * is closed rather than returned to the pool in the middle of a transaction.
   */
  async rollback(): Promise<void> {
    if (!this.connection) return;
    const connection = await this.connection.catch(() => undefined);
    if (connection) await execute(connection, 'ROLLBACK', []).catch(() => connection.destroy());
  }

  private async send(query: string, params: unknown[], before: Statement[]): Promise<unknown> {
    return (await this.results([...before, { query, params }])).at(-1);
  }

  /** The result of each statement, sent together on the runner's own mysql2 connection, without the ORM's per-query bookkeeping. */
  private async results(statements: Statement[]): Promise<unknown[]> {
    this.connection ??= this.runner.connect() as Promise<CallbackConnection>;
    const connection = await this.connection;
    if (statements.length === 1) return [await execute(connection, statements[0]!.query, statements[0]!.params)];
    const text = statements.map((statement) => statement.query).join(';\n');
    return (await execute(connection, text, statements.flatMap((statement) => statement.params))) as unknown[];
  }
}

/** mysql2's callback API: its promise wrapper records a stack trace for every query. */
function execute(connection: CallbackConnection, text: string, params: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => connection.query(text, params, (error, results) => (error ? reject(error) : resolve(results))));
}

interface CallbackConnection {
  query(sql: string, values: unknown[], callback: (error: Error | null, results: unknown) => void): void;
  destroy(): void;
}
