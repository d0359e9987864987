// The floor's SQLite: one connection set as the service sets its own (WAL, synchronous NORMAL, an 8 MB cache, temporary
// pages in memory, foreign keys on, its log checkpointed every 100 ms by the service's own worker thread), and units of
// work committed in groups as the service commits them: the units waiting run in one IMMEDIATE transaction, each atomic
// one under a savepoint, until the batch has 100 or has run 20 ms, and are answered once it has committed; the event
// loop turns between batches.
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const MAX_UNITS_PER_COMMIT = 100;
const BATCH_BUDGET_MS = 20;
const CHECKPOINT_WORKER = join(import.meta.dirname, '..', '..', 'dist', 'database', 'wal-checkpoint.worker.mjs');

export function openSqlite(path) {
  const connection = new Database(path, { fileMustExist: true });
  for (const pragma of ['synchronous = NORMAL', 'busy_timeout = 5000', 'cache_size = -8192', 'temp_store = MEMORY', 'foreign_keys = ON', 'journal_mode = WAL']) {
    connection.pragma(pragma);
  }
  const checkpointer = new Worker(CHECKPOINT_WORKER, { workerData: { path, intervalMs: 100, maxFrames: 10_000 } });
  checkpointer.unref();
  connection.pragma('wal_autocheckpoint = 0');

  const statements = new Map();
  const prepared = (text) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = connection.prepare(text)));
    return statement;
  };
  const unit = {
    dialect: 'sqlite',
    get: async (text, params) => prepared(text).get(params),
    all: async (text, params) => prepared(text).all(params),
    allEach: async (...queries) => queries.map(([text, params]) => prepared(text).all(params)),
    run: async (text, params) => prepared(text).run(params).changes,
    later: async (text, params) => void prepared(text).run(params),
  };

  const waiting = [];
  let running = false;
  let lastTime = NaN;
  let lastText = '';
  const runBatch = async () => {
    connection.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const batch = [];
    const outcomes = [];
    while (waiting.length > 0 && batch.length < MAX_UNITS_PER_COMMIT && performance.now() - started < BATCH_BUDGET_MS) {
      const next = waiting.shift();
      batch.push(next);
      const { work, atomic } = next;
      if (atomic) connection.exec('SAVEPOINT unit');
      try {
        outcomes.push({ ok: true, value: await work(unit) });
        if (atomic) connection.exec('RELEASE unit');
      } catch (error) {
        if (atomic) {
          connection.exec('ROLLBACK TO unit');
          connection.exec('RELEASE unit');
        }
        outcomes.push({ ok: false, error });
      }
    }
    connection.exec('COMMIT');
    batch.forEach((unit, index) => (outcomes[index].ok ? unit.resolve(outcomes[index].value) : unit.reject(outcomes[index].error)));
  };
  const drain = async () => {
    try {
      while (waiting.length > 0) {
        await runBatch();
        if (waiting.length > 0) await new Promise(setImmediate);
      }
    } finally {
      running = false;
    }
  };
  const enqueue = (work, atomic) =>
    new Promise((resolve, reject) => {
      waiting.push({ work, atomic, resolve, reject });
      if (running) return;
      running = true;
      setImmediate(drain);
    });

  return {
    dialect: 'sqlite',
    /** SQLite keeps times as UTC text with milliseconds, as TypeORM does; a request binds the same few times again and again. */
    time: (date) => {
      const ms = date.getTime();
      if (ms !== lastTime) [lastTime, lastText] = [ms, date.toISOString().slice(0, 23).replace('T', ' ')];
      return lastText;
    },
    transaction: (work) => enqueue(work, true),
    run: (work) => enqueue(work, false),
    close: async () => {
      await checkpointer.terminate();
      connection.close();
    },
  };
}
