import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Database as SqliteConnection } from 'better-sqlite3';
import { DataSource, QueryFailedError } from 'typeorm';
import { ConnectionGate } from './connection-gate.js';
import { Sql, type Dialect } from './sql.js';
import { SqliteUnits } from './sqlite-units.js';
import { RunnerStatements, SqliteStatements } from './statements.js';

/** Lock wait timeout; deadlock, which is also how a Galera node reports a lost certification (at COMMIT or at the next statement). */
const MYSQL_RETRYABLE_ERRNOS = new Set([1205, 1213]);
/**
 * A unit that keeps losing is run again at least this many times, and for as long as the retry window lasts: a burst
 * of units that instances on several Galera nodes race for one row (an account's balance, one code) takes seconds.
 */
const MIN_ATTEMPTS = 10;
const RETRY_WINDOW_MS = 5_000;
/** The longest pause before an attempt, in ms: the pauses grow, randomised, to spread the racing units apart. */
const MAX_BACKOFF_MS = 100;

export interface UnitOptions {
  /**
   * On SQLite the unit goes before the others waiting for the connection (SqliteUnits): an OTP's send, check and
   * hand-over, and the short look-ups requests wait on before their own work (a key's credentials, a rate-limit
   * lease). On MySQL it takes the pool's next connection before the others waiting (ConnectionGate).
   */
  urgent?: boolean;
}

/**
 * Units of work. On SQLite they run one at a time on its single connection,
 * committed in groups (see SqliteUnits), their statements straight to
 * better-sqlite3. On MySQL they run in parallel on pooled connections, taken
 * in the order ConnectionGate gives, and are retried when InnoDB picks them
 * as a deadlock victim. On shutdown the connection closes only once the units
 * in flight have finished, including those of requests whose client has gone.
 *
 * A retried unit runs its work again from the start on a fresh transaction:
 * nothing of the failed attempt was committed (a failed COMMIT commits
 * nothing, on InnoDB as on Galera). So work counts afresh on each attempt, and
 * leaves what it does outside the database (a hand-over, a wake-up) to its
 * caller, once the unit has returned.
 */
@Injectable()
export class Database implements OnModuleInit, BeforeApplicationShutdown {
  readonly dialect: Dialect;
  private readonly logger = new Logger(Database.name);
  private readonly sqliteUnits = new SqliteUnits(
    () => this.sqliteConnection(),
    () => this.sqlite(),
  );
  private sqliteSql: Sql | undefined;
  /** MySQL: who takes the pool's next connection. */
  readonly gate: ConnectionGate;
  private unitsInFlight = 0;
  /** The server is a Galera node (wsrep on): units send one statement per round trip (see RunnerStatements). */
  private galera = false;
  /** Attempts that lost a deadlock or a certification conflict and were run again (on /metrics). */
  retriedUnits = 0;
  private whenIdle: (() => void) | undefined;

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite';
    this.gate = new ConnectionGate((dataSource.options as { poolSize?: number }).poolSize ?? 10);
  }

  async onModuleInit(): Promise<void> {
    if (this.dialect !== 'mysql') return;
    // a server without Galera has no such variable, or has it off
    const rows = (await this.dataSource.query('SELECT @@wsrep_on AS wsrep').catch(() => [])) as Array<{ wsrep: unknown }>;
    this.galera = [1, '1', 'ON'].includes(rows[0]?.wsrep as number | string);
  }

  transaction<T>(work: (sql: Sql) => Promise<T>, options: UnitOptions = {}): Promise<T> {
    if (this.dialect === 'sqlite') return this.tracked(this.sqliteUnits.run(work, true, options.urgent === true));
    return this.tracked(this.withDeadlockRetry(() => this.mysqlUnit(work, true, options.urgent === true)));
  }

  /** Statements outside a transaction: reads, and single-statement writes. */
  run<T>(work: (sql: Sql) => Promise<T>, options: UnitOptions = {}): Promise<T> {
    if (this.dialect === 'sqlite') return this.tracked(this.sqliteUnits.run(work, false, options.urgent === true));
    return this.tracked(this.mysqlUnit(work, false, options.urgent === true));
  }

  /** SQLite: begins no unit until the function it resolves with is called, once the units in progress have committed (SqliteUnits.pause). */
  pauseUnits(): Promise<() => void> {
    return this.sqliteUnits.pause();
  }

  /** Runs before the ORM closes the connection (in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    while (this.unitsInFlight > 0) await new Promise<void>((resolve) => (this.whenIdle = resolve));
  }

  private async tracked<T>(unit: Promise<T>): Promise<T> {
    this.unitsInFlight++;
    try {
      return await unit;
    } finally {
      if (--this.unitsInFlight === 0) this.whenIdle?.();
    }
  }

  private sqlite(): Sql {
    this.sqliteSql ??= new Sql('sqlite', new SqliteStatements(this.sqliteConnection()), this.dataSource.manager);
    return this.sqliteSql;
  }

  private sqliteConnection(): SqliteConnection {
    return sqliteConnectionOf(this.dataSource);
  }

  private async mysqlUnit<T>(work: (sql: Sql) => Promise<T>, transactional: boolean, urgent: boolean): Promise<T> {
    await this.gate.enter(urgent);
    const runner = this.dataSource.createQueryRunner();
    const statements = new RunnerStatements(runner, !this.galera);
    const sql = new Sql('mysql', statements, runner.manager);
    try {
      if (transactional) await sql.begin();
      const result = await work(sql);
      await (transactional ? sql.commit() : sql.flush());
      return result;
    } catch (error) {
      sql.discard();
      if (transactional) await statements.rollback();
      throw error;
    } finally {
      await runner.release();
      this.gate.leave(urgent);
    }
  }

  private async withDeadlockRetry<T>(task: () => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await task();
      } catch (error) {
        const givingUp = attempt >= MIN_ATTEMPTS && Date.now() - started >= RETRY_WINDOW_MS;
        if (givingUp || !isRetryable(error)) throw error;
        this.retriedUnits++;
        this.logger.debug(`transaction retried after lock conflict (attempt ${attempt})`);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)));
      }
    }
  }
}

/** better-sqlite3's connection under the ORM. */
export function sqliteConnectionOf(dataSource: DataSource): SqliteConnection {
  return (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
}

function isRetryable(error: unknown): boolean {
  // raised through the ORM, or straight from mysql2 (RunnerStatements)
  const driverError = (error instanceof QueryFailedError ? error.driverError : error) as { errno?: number } | undefined;
  return driverError?.errno !== undefined && MYSQL_RETRYABLE_ERRNOS.has(driverError.errno);
}
