import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import 'reflect-metadata';
import { applicationLogger } from './common/logging/logger.js';
import { ConfigurationError, parseEnvironment } from './config/environment.js';

const SHUTDOWN_DEADLINE_MS = 15_000;

/** The server processes `WORKERS` asks for: its count, or one per core for `auto`. */
export function serverWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const { WORKERS, DB_TYPE, DB_PATH } = parseEnvironment(env);
  const count = WORKERS === 'auto' ? availableParallelism() : Number(WORKERS);
  if (count > 1 && DB_TYPE === 'sqlite' && DB_PATH === ':memory:') {
    throw new ConfigurationError('Invalid configuration:\n  WORKERS above 1 needs a database they share: DB_PATH=:memory: is one per process');
  }
  return count;
}

/** This process is to start the others: `WORKERS` above 1, and not itself one of them. */
export function startsWorkers(): boolean {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return cluster.isPrimary && serverWorkers() > 1;
}

/**
 * The first process of `WORKERS` above 1. It migrates the database and settles the development secrets once, then
 * starts the server processes (node:cluster), which share the port, each with its own database connection and its own
 * job runner; it serves nothing itself. On SQLite their writes are serialised by the database (each unit of work takes
 * the write lock, waiting up to `busy_timeout` for it); background work is claimed with leases, as by several
 * instances. A process that dies is replaced. SIGTERM or SIGINT stops every one gracefully (each as a single server
 * stops), then this one exits: 0 if they all did.
 */
export async function superviseWorkers(): Promise<void> {
  const logger = applicationLogger();
  const count = serverWorkers();
  const { PORT, SHUTDOWN_DRAIN_MS } = parseEnvironment(process.env);
  const { default: dataSource } = await import('./database/data-source.js');
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
  (await import('./config/secrets.config.js')).secretsConfig();

  let listening = 0;
  let running = 0;
  let stopping = false;
  const failed: number[] = [];
  cluster.on('listening', () => {
    if (++listening !== count) return;
    const url = `http://localhost:${PORT}`;
    process.stdout.write(`Serving on ${url} with ${count} workers (Swagger UI: ${url}/docs)\n`);
  });
  cluster.on('fork', () => running++);
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    running--;
    if (code !== 0) failed.push(worker.id);
    if (stopping) {
      if (running === 0) process.exit(failed.length > 0 ? 1 : 0);
      return;
    }
    if (listening < count) {
      // one that fails to start (a wrong setting, a port in use) would fail again: none is served
      logger.error({ worker: worker.id, code, signal }, 'a server worker exited while starting; stopping');
      stop('SIGTERM');
      return;
    }
    logger.warn({ worker: worker.id, code, signal }, 'a server worker exited; starting another');
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    setTimeout(() => stop(signal), SHUTDOWN_DRAIN_MS + SHUTDOWN_DEADLINE_MS).unref();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (running === 0) process.exit(1);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  for (let i = 0; i < count; i++) cluster.fork();
}
