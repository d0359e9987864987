import { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { databaseConfig, type DatabaseConfig } from '../config/database.config.js';
import { Database, sqliteConnectionOf } from './database.js';

const INTERVAL_MS = 100;
/**
 * Past this many frames (about 160 MB) in the log, units wait for a checkpoint that lets it start over: tens of
 * milliseconds each time, every second or two under sustained 1,000-recipient sends (every fifth of a second at
 * 10,000 frames, which cost them 8 % of their rate). Readers look frames up only in the part not yet copied.
 */
export const MAX_FRAMES = 40_000;
/** SQLite's own threshold, back in force whenever the worker is not running. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

type WorkerMessage = { failed: string } | { pause: true } | { restarted: true };

/**
 * Copies SQLite's write-ahead log into the database file from a worker thread,
 * every 100 ms, instead of at the commit that crosses 1,000 pages: that copy
 * and its two fsyncs would otherwise stall the event loop, and every request
 * waiting on it. The serving connection's automatic checkpoints are off while
 * the worker runs. Durability is unchanged: a commit is in the log either way.
 *
 * For the log to start over, no unit may write while the worker copies what
 * its last passive checkpoint missed: the worker asks, the units pause once
 * those in progress have committed, and they resume when it is done. They
 * wait without holding the event loop, where SQLite's busy handler would
 * sleep on it (up to half a second at once under sustained 1,000-recipient
 * sends), and requests that need no unit are answered meanwhile.
 */
@Injectable()
export class WalCheckpointer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WalCheckpointer.name);
  private worker: Worker | undefined;
  /** Resumes the units paused for the worker's restart of the log. */
  private resume: (() => void) | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: Database,
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.type !== 'sqlite' || this.config.path === ':memory:') return;
    const worker = new Worker(new URL('./wal-checkpoint.worker.mjs', import.meta.url), {
      workerData: { path: this.config.path, intervalMs: INTERVAL_MS, maxFrames: MAX_FRAMES },
    });
    worker.on('message', (message: WorkerMessage) => void this.heard(worker, message));
    worker.on('error', (error) => this.logger.error({ err: error }, 'WAL checkpointer stopped; SQLite checkpoints on commit again'));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.resumeUnits();
      this.automaticCheckpoints(true);
    });
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

  private async heard(worker: Worker, message: WorkerMessage): Promise<void> {
    if ('failed' in message) this.logger.warn(`WAL checkpoint failed: ${message.failed}`);
    if ('restarted' in message) this.resumeUnits();
    if (!('pause' in message)) return;
    this.resume = await this.database.pauseUnits();
    // stopped meanwhile: nothing will say it is done
    if (this.worker !== worker) return this.resumeUnits();
    worker.postMessage('paused');
  }

  private resumeUnits(): void {
    this.resume?.();
    this.resume = undefined;
  }

  private automaticCheckpoints(on: boolean): void {
    const connection = sqliteConnectionOf(this.dataSource);
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${on ? AUTOMATIC_CHECKPOINT_PAGES : 0}`);
  }
}
