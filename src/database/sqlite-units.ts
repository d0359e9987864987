import type { Database as SqliteConnection } from 'better-sqlite3';
import type { Sql } from './sql.js';

const MAX_UNITS_PER_COMMIT = 100;
/** A batch takes no more units once it has run this long, and the event loop turns before the next one begins. */
const BATCH_BUDGET_MS = 20;

interface Unit {
  work: (sql: Sql) => Promise<unknown>;
  /** Rolled back on its own if it throws; otherwise its statements commit one by one with the batch. */
  atomic: boolean;
  urgent: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Units of work on SQLite's single connection, one at a time (so that no two
 * interleave), with group commit: the units waiting when a batch starts run
 * inside one transaction, each atomic unit under its own savepoint, and all of
 * them are answered only once that transaction has committed. A commit writes
 * every page the batch touched once instead of once per unit, which is most of
 * what a send costs on its own. SQLite's calls are synchronous: a batch holds
 * the event loop while it runs, so it is bounded in time as well as in units,
 * and requests are read between batches (a batch of fifty 1,000-recipient
 * sends would otherwise hold every other request, a health check included,
 * for over a second).
 *
 * Urgent units (UnitOptions.urgent: an OTP's, the look-ups requests wait on)
 * go before the others waiting, so that a code is not kept behind a bulk
 * send's thousand messages; each batch still takes one other unit when some
 * wait, so that none waits for ever (a lease's renewal among them).
 */
export class SqliteUnits {
  private readonly urgent: Unit[] = [];
  private readonly ordinary: Unit[] = [];
  private running = false;
  /** No batch begins (pause): the log checkpointer has the write lock, or is about to take it. */
  private paused = false;
  private batch: Promise<void> | undefined;

  constructor(
    private readonly connection: () => SqliteConnection,
    private readonly sql: () => Sql,
  ) {}

  run<T>(work: (sql: Sql) => Promise<T>, atomic: boolean, urgent: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (urgent ? this.urgent : this.ordinary).push({ work, atomic, urgent, resolve: resolve as (value: unknown) => void, reject });
      this.start();
    });
  }

  /**
   * Begins no more batches until `resume` is called, and resolves once the batch in progress has committed: the
   * write lock is then free for another connection (the log checkpointer's), and units wait for it without holding
   * the event loop, as they would in SQLite's busy handler.
   */
  async pause(): Promise<() => void> {
    this.paused = true;
    await this.batch;
    return () => {
      this.paused = false;
      this.start();
    };
  }

  private start(): void {
    if (this.running || this.paused || !this.waiting) return;
    this.running = true;
    // after the I/O callbacks of this turn of the event loop: the units they start join one batch
    setImmediate(() => void this.drain());
  }

  private get waiting(): boolean {
    return this.urgent.length > 0 || this.ordinary.length > 0;
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting && !this.paused) {
        this.batch = this.runBatch();
        await this.batch;
        this.batch = undefined;
        if (this.waiting) await new Promise(setImmediate);
      }
    } finally {
      this.running = false;
    }
  }

  /** The batch's next unit: an urgent one first; once the batch is full, one other more if it has none. */
  private next(batch: readonly Unit[], started: number): Unit | undefined {
    if (batch.length < MAX_UNITS_PER_COMMIT && performance.now() - started < BATCH_BUDGET_MS) return this.urgent.shift() ?? this.ordinary.shift();
    return batch.some((unit) => !unit.urgent) ? undefined : this.ordinary.shift();
  }

  /** IMMEDIATE: the write lock is taken at once, so that another process (the CLI) waits instead of failing half-way. */
  private async runBatch(): Promise<void> {
    let connection: SqliteConnection;
    try {
      connection = this.connection();
      connection.exec('BEGIN IMMEDIATE');
    } catch (error) {
      const failed = this.urgent.splice(0, MAX_UNITS_PER_COMMIT);
      failed.push(...this.ordinary.splice(0, MAX_UNITS_PER_COMMIT - failed.length));
      for (const unit of failed) unit.reject(error);
      return;
    }
    const started = performance.now();
    const batch: Unit[] = [];
    const outcomes: Outcome[] = [];
    for (let unit = this.next(batch, started); unit; unit = this.next(batch, started)) {
      batch.push(unit);
      outcomes.push(await this.runUnit(connection, unit));
      if (!connection.inTransaction) {
        // an error that ends the transaction (SQLITE_FULL, an I/O error) undid the units before it too
        const lost = outcomes.at(-1)!;
        for (const done of batch) done.reject(lost.ok ? new Error('transaction lost') : lost.error);
        return;
      }
    }
    try {
      connection.exec('COMMIT');
    } catch (error) {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  private async runUnit(connection: SqliteConnection, unit: Unit): Promise<Outcome> {
    if (unit.atomic) connection.exec('SAVEPOINT unit');
    try {
      const value = await unit.work(this.sql());
      if (unit.atomic) connection.exec('RELEASE unit');
      return { ok: true, value };
    } catch (error) {
      if (unit.atomic && connection.inTransaction) {
        connection.exec('ROLLBACK TO unit');
        connection.exec('RELEASE unit');
      }
      return { ok: false, error };
    }
  }
}
