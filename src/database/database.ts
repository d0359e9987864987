import { Injectable, Logger } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { Sql, type Dialect } from './sql.js';

const MYSQL_RETRYABLE_ERRNOS = new Set([1205, 1213]); // lock wait timeout, deadlock
const MAX_ATTEMPTS = 5;

/**
 * Units of work. SQLite has one connection and one writer, so every unit runs
 * alone (a promise queue), which keeps concurrent requests from interleaving
 * inside one transaction. MySQL units run in parallel on pooled connections
 * and are retried when InnoDB picks them as a deadlock victim.
 */
@Injectable()
export class Database {
  readonly dialect: Dialect;
  private readonly logger = new Logger(Database.name);
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite';
  }

  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.dialect === 'sqlite') return this.alone(() => this.once(work, true));
    return this.withDeadlockRetry(() => this.once(work, true));
  }

  /** Statements outside a transaction: reads, and single-statement writes that commit on their own. */
  run<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.dialect === 'sqlite') return this.alone(() => this.once(work, false));
    return this.once(work, false);
  }

  private async once<T>(work: (sql: Sql) => Promise<T>, transactional: boolean): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      if (!transactional) return await work(new Sql(this.dialect, runner));
      await runner.startTransaction();
      try {
        const result = await work(new Sql(this.dialect, runner));
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  private alone<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async withDeadlockRetry<T>(task: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await task();
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
        this.logger.debug(`transaction retried after lock conflict (attempt ${attempt})`);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      }
    }
  }
}

function isRetryable(error: unknown): boolean {
  const driverError = error instanceof QueryFailedError ? (error.driverError as { errno?: number }) : undefined;
  return driverError?.errno !== undefined && MYSQL_RETRYABLE_ERRNOS.has(driverError.errno);
}
