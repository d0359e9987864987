import { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { sqliteConnectionOf } from './database.js';

const INTERVAL_MS = 100;
/** Past this many frames (about 40 MB) in the log, writers wait for a checkpoint that lets it start over. */
const MAX_FRAMES = 10_000;
/** SQLite's own threshold, back in force whenever the worker is not running. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

/**
 * Copies SQLite's write-ahead log into the database file from a worker thread,
 * every 100 ms, instead of at the commit that crosses 1,000 pages: that copy
 * and its two fsyncs would otherwise stall the event loop, and every request
 * waiting on it. The serving connection's automatic checkpoints are off while
 * the worker runs. Durability is unchanged: a commit is in the log either way.
 */
@Injectable()
export class WalCheckpointer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WalCheckpointer.name);
  private worker: Worker | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.type !== 'sqlite' || this.config.path === ':memory:') return;
    const worker = new Worker(new URL('./wal-checkpoint.worker.mjs', import.meta.url), {
      workerData: { path: this.config.path, intervalMs: INTERVAL_MS, maxFrames: MAX_FRAMES },
    });
    worker.on('message', (message: { failed: string }) => this.logger.warn(`WAL checkpoint failed: ${message.failed}`));
    worker.on('error', (error) => this.logger.error({ err: error }, 'WAL checkpointer stopped; SQLite checkpoints on commit again'));
    worker.on('exit', () => this.automaticCheckpoints(true));
    worker.unref();
    this.automaticCheckpoints(false);
    this.worker = worker;
  }

  async beforeApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await exited;
  }

  private automaticCheckpoints(on: boolean): void {
    const connection = sqliteConnectionOf(this.dataSource);
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${on ? AUTOMATIC_CHECKPOINT_PAGES : 0}`);
  }
}
