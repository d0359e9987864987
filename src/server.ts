import 'reflect-metadata';
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DemoAccount } from './admin/demo-account.js';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { createFastifyAdapter } from './common/http/http-server.js';
import { applicationLogger } from './common/logging/logger.js';
import { appConfig, type AppConfig } from './config/app.config.js';
import { ConfigurationError } from './config/environment.js';
import { ShutdownDrain } from './health/shutdown-drain.js';

async function bootstrap(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(applicationLogger()), {
    bodyParser: false,
    abortOnError: false,
    logger: false,
  });
  await configureApp(app);
  const config = app.get<AppConfig>(appConfig.KEY);
  await app.listen(config.port, config.host);

  // one of several server processes (WORKERS): the first makes the demo account, the primary says when all serve
  const worker = cluster.worker;
  const demo = worker === undefined || worker.id === 1 ? await app.get(DemoAccount).createIfEmpty() : null;
  const url = `http://localhost:${config.port}`;
  if (demo) {
    process.stdout.write(
      `\nDemo account ${demo.account_id} created. Its API key, shown only this once:\n\n  ${demo.api_key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${demo.api_key}" ${url}/v1/account\n`,
    );
  }
  if (worker === undefined) {
    process.stdout.write(`Serving on ${url} (Swagger UI: ${url}/docs)\n`);
    applicationLogger().info({ context: 'PublicUrl', publicUrl: config.publicUrl }, 'links in messages start with the public address (PUBLIC_URL)');
  }
  closeGracefullyOn(app, config.shutdownDrainMs, worker !== undefined);
}

// below the 10 s that Docker, podman and Compose wait before SIGKILL by default
const SHUTDOWN_DEADLINE_MS = 8_000;

/**
 * On SIGTERM or SIGINT, fails readiness while it still serves for `drainMs`
 * (load balancers take the instance out meanwhile), then closes the HTTP
 * server, so that the requests in flight finish while everything they use is
 * still there, then runs Nest's shutdown: the dispatcher settles what it
 * claimed and the rate counts are flushed, the SMSC bind and the SMTP pool
 * close, then the database. The process then exits 0 by itself, having
 * nothing left to do. Past the deadline (counted after the drain), or on a
 * second signal, it exits 1 at once. One of several server processes
 * (`worker`) stops on SIGTERM, which its primary relays for both (a
 * terminal's Ctrl-C reaches every process of the group), or when its primary
 * has gone; it lets go of its channel to the primary once closed.
 */
function closeGracefullyOn(app: NestFastifyApplication, drainMs: number, worker: boolean): void {
  const logger = applicationLogger();
  let closing = false;
  const exitNow = (message: string, error?: unknown) => {
    logger.error({ err: error }, message);
    process.exit(1);
  };
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return exitNow(`${signal} received again while shutting down; exiting now`);
    closing = true;
    setTimeout(() => exitNow(`shutdown not finished within ${SHUTDOWN_DEADLINE_MS} ms of the drain's end; exiting now`), drainMs + SHUTDOWN_DEADLINE_MS).unref();
    app.get(ShutdownDrain).begin();
    sleep(drainMs)
      .then(() => app.getHttpAdapter().getInstance().close())
      .then(() => app.close())
      .then(() => worker && process.connected && process.disconnect())
      .catch((error: unknown) => exitNow('shutdown failed', error));
  };
  process.on('SIGTERM', shutdown);
  if (!worker) process.on('SIGINT', shutdown);
  else {
    process.on('SIGINT', () => undefined);
    process.once('disconnect', () => closing || shutdown('SIGTERM'));
  }
}

bootstrap().catch((error: unknown) => {
  const root = error instanceof Error && error.cause instanceof ConfigurationError ? error.cause : error;
  process.stderr.write(`${root instanceof ConfigurationError ? root.message : String((root as Error)?.stack ?? root)}\n`);
  process.exit(1);
});
