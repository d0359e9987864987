import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DemoAccount } from './admin/demo-account.js';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { createFastifyAdapter } from './common/http/http-server.js';
import { applicationLogger } from './common/logging/logger.js';
import { appConfig, type AppConfig } from './config/app.config.js';
import { ConfigurationError } from './config/environment.js';

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

  const demo = await app.get(DemoAccount).createIfEmpty();
  const url = `http://localhost:${config.port}`;
  if (demo) {
    process.stdout.write(
      `\nDemo account ${demo.account_id} created. Its API key, shown only this once:\n\n  ${demo.api_key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${demo.api_key}" ${url}/v1/account\n`,
    );
  }
  process.stdout.write(`Serving on ${url} (Swagger UI: ${url}/docs)\n`);
}

bootstrap().catch((error: unknown) => {
  const root = error instanceof Error && error.cause instanceof ConfigurationError ? error.cause : error;
  process.stderr.write(`${root instanceof ConfigurationError ? root.message : String((root as Error)?.stack ?? root)}\n`);
  process.exit(1);
});
