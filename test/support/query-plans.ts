import { jest } from '@jest/globals';
import type { DataSource, QueryRunner } from 'typeorm';
import type { Database as SqliteConnection } from 'better-sqlite3';
import { ReportReads } from '../../src/database/report-reads.js';
import { bindParam, type Param } from '../../src/database/sql.js';
import { RunnerStatements, SqliteStatements, type Statement } from '../../src/database/statements.js';
import { mysqlScans, sqliteScans, type MysqlPlanStep } from './plan-scans.js';

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
 * whole index instead of seeking in an index (plan-scans.ts).
 */
export async function fullScans(dataSource: DataSource, { query, params }: Statement): Promise<string[]> {
  if (dataSource.options.type === 'better-sqlite3') {
    // prepared afresh: a prepared EXPLAIN keeps its plan after the schema changes
    const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    const plan = connection.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...params) as Array<{ detail: string }>;
    return sqliteScans(plan.map((step) => step.detail));
  }
  return mysqlScans((await dataSource.query(`EXPLAIN ${query}`, params)) as MysqlPlanStep[]);
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
