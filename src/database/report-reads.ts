import { Worker } from 'node:worker_threads';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { Database } from './database.js';
import { bindParam, type Param } from './sql.js';

type Reply = { id: number; rows: unknown[]; error?: undefined } | { id: number; error: string };

/**
 * Reads that go over many rows, such as a year of messages counted for
 * GET /v1/metrics. SQLite runs a statement on the thread that calls it, so
 * there they run on a worker thread with a read-only connection of their own
 * (the write-ahead log lets it read beside the writer), and the event loop
 * goes on serving meanwhile. On MySQL the server runs them apart anyway.
 */
@Injectable()
export class ReportReads implements BeforeApplicationShutdown {
  private worker: Worker | undefined;
  private lastId = 0;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly database: Database,
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
  ) {}

  all<T>(query: string, params: readonly Param[]): Promise<T[]> {
    if (this.config.type !== 'sqlite' || this.config.path === ':memory:') return this.database.run((sql) => sql.all<T>(query, params));
    const worker = this.started();
    const id = ++this.lastId;
    return new Promise<T[]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      worker.postMessage({ id, query, params: params.map((param) => bindParam('sqlite', param)) });
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await exited;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sqlite-report.worker.mjs', import.meta.url), { workerData: { path: this.config.path } });
    worker.on('message', (reply: Reply) => {
      const request = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error === undefined) request?.resolve(reply.rows);
      else request?.reject(new Error(`report query failed: ${reply.error}`));
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`report thread exited (${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
