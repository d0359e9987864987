import { jest } from '@jest/globals';
import type { DataSource, QueryRunner } from 'typeorm';
import type { Database as SqliteConnection } from 'better-sqlite3';
import { ReportReads } from '../../src/database/report-reads.js';
import { bindParam, type Param } from '../../src/database/sql.js';
import { RunnerStatements, SqliteStatements, type Statement } from '../../src/database/statements.js';

/**
 * Records every statement the service sends to the database, with its
 * parameters as bound: those of the repositories (through SqliteStatements or
 * RunnerStatements, with the writes batched ahead of a statement), the report
 * reads (ReportReads) and those of the ORM's query runner.
 */
export function recordStatements(dataSource: DataSource): { statements: Statement[]; stop(): void } {
  const statements: Statement[] = [];
  const record = (query: string, params: unknown[] = []) => statements.push({ query: query.trim(), params });
  const recordWithBatched = (query: string, params: unknown[], before: Statement[] = []) => {
    before.forEach((statement) => record(statement.query, statement.params));
    record(query, params);
  };
  const recordEach = (each: Statement[], before: Statement[] = []) => [...before, ...each].forEach((statement) => record(statement.query, statement.params));
  const spies = [
    ...[SqliteStatements.prototype, RunnerStatements.prototype].flatMap((prototype) => [
      listen(prototype, 'all', recordWithBatched),
      listen(prototype, 'allEach', recordEach),
      listen(prototype, 'write', recordWithBatched),
    ]),
    // on MySQL they go through RunnerStatements
    ...(dataSource.options.type === 'mysql'
      ? []
      : [listen(ReportReads.prototype, 'all', (query: string, params: Param[]) => record(query, params.map((param) => bindParam('sqlite', param))))]),
    listen(Object.getPrototypeOf(dataSource.createQueryRunner()) as QueryRunner, 'query', record),
  ];
  return { statements, stop: () => spies.forEach((spy) => spy.mockRestore()) };
}

/** Calls `listener` with the arguments of every call of the method, which goes on doing what it did. */
function listen<T extends object>(target: T, method: keyof T & string, listener: (...args: never[]) => void) {
  const methods = target as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = methods[method]!;
  return jest.spyOn(methods, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
    listener(...(args as never[]));
    return original.apply(this, args);
  });
}

/**
 * The table accesses in the statement's plan that read a whole table or a
 * whole index instead of seeking in an index: SQLite's `SCAN …` steps, MySQL's
 * `ALL` and `index` access types or accesses without a key. The rows of a
 * subquery in FROM (a page of keys, found through an index) and of a union of
 * such subqueries are not counted.
 */
export async function fullScans(dataSource: DataSource, { query, params }: Statement): Promise<string[]> {
  if (dataSource.options.type === 'better-sqlite3') {
    // prepared afresh: a prepared EXPLAIN keeps its plan after the schema changes
    const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    const plan = connection.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...params) as Array<{ detail: string }>;
    // a subquery's own rows (a page of keys found through an index) are read whole by design
    const subqueries = new Set(plan.map((step) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(step.detail)?.[1]).filter(Boolean));
    return plan.map((step) => step.detail).filter((detail) => detail.startsWith('SCAN ') && !subqueries.has(detail.slice(5).split(' ')[0]));
  }
  const plan = (await dataSource.query(`EXPLAIN ${query}`, params)) as Array<{ table: string | null; type: string | null; key: string | null }>;
  // a row without a table is a note, such as "Impossible WHERE noticed after reading const tables";
  // a derived table or a union's result holds the rows its own steps found;
  // a `const` access without a key is an outer join whose condition no row can meet (a NULL key), which reads nothing
  return plan
    .filter((step) => step.table !== null && !/^<(derived|union)/.test(step.table))
    .filter((step) => step.type === 'ALL' || step.type === 'index' || (step.key === null && step.type !== 'const'))
    .map((step) => `${step.table}: ${step.type}, key ${step.key}`);
}

/** The statements EXPLAIN can show a plan of (reads, updates, deletes), each once. */
export function explainable(statements: Statement[]): Statement[] {
  const shown = statements.filter((statement) => /^(SELECT|UPDATE|DELETE)\b/i.test(statement.query));
  return [...new Map(shown.map((statement) => [JSON.stringify(statement), statement])).values()];
}

/** Each statement with the full scans of its plan (fullScans). */
export function plansOf(dataSource: DataSource, statements: Statement[]): Promise<Array<{ query: string; scans: string[] }>> {
  return Promise.all(statements.map(async (statement) => ({ query: statement.query, scans: await fullScans(dataSource, statement) })));
}

/**
 * Each statement with whether its plan sorts rows it read from a table, rather
 * than a page of keys a subquery found in order (at most `limit + 1` rows):
 * SQLite's temporary B-tree, MariaDB's filesort.
 */
export function sortingPlans(dataSource: DataSource, statements: Statement[]): Promise<Array<{ query: string; sorts: boolean }>> {
  return Promise.all(statements.map(async (statement) => ({ query: statement.query, sorts: await sortsTableRows(dataSource, statement) })));
}

async function sortsTableRows(dataSource: DataSource, { query, params }: Statement): Promise<boolean> {
  if (dataSource.options.type === 'better-sqlite3') {
    const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    const steps = (connection.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...params) as Array<{ detail: string }>).map((step) => step.detail);
    return steps.some((step, n) => step.startsWith('USE TEMP B-TREE') && !/^SCAN (source_\d+|keyset_page)$/.test(steps[n - 1] ?? ''));
  }
  const plan = (await dataSource.query(`EXPLAIN ${query}`, params)) as Array<{ table: string | null; Extra: string | null }>;
  return plan.some((step) => !/^<(derived|union)/.test(step.table ?? '') && (step.Extra?.includes('filesort') ?? false));
}
