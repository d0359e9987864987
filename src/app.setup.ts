import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { requestAuthenticator } from './auth/request-authenticator.js';
import { registerBodyParsers } from './common/http/body-parsers.js';
import { registerCsvBody } from './common/http/csv-body.js';
import { addStandardHeaders } from './common/http/http-server.js';
import { answerOtherMethods } from './common/http/method-not-allowed.js';
import { ApplicationLogger } from './common/logging/application-logger.js';
import { logEveryRequest } from './common/logging/request-log.js';
import { setupSwagger } from './common/http/swagger.js';
import { appConfig, type AppConfig } from './config/app.config.js';
import { contactImportConfig, type ContactImportConfig } from './config/contact-import.config.js';
import { Metrics } from './metrics/metrics.js';
import { recordRequestMetrics } from './metrics/request-metrics.js';
import { WebhookEvents } from './webhook/webhook-events.js';

/** Everything the running service and the e2e tests share beyond the module graph. */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const config = app.get<AppConfig>(appConfig.KEY);
  app.useLogger(app.get(ApplicationLogger));
  const fastify = app.getHttpAdapter().getInstance();
  addStandardHeaders(fastify);
  const csvLimit = app.get<ContactImportConfig>(contactImportConfig.KEY).maxBytes;
  registerBodyParsers(fastify, { default: config.bodyLimitBytes, bulk: config.bulkBodyLimitBytes, csv: csvLimit });
  await registerCsvBody(fastify, { default: config.bodyLimitBytes, csv: csvLimit });
  answerOtherMethods(fastify, await requestAuthenticator(app));
  logEveryRequest(fastify);
  recordRequestMetrics(fastify, app.get(Metrics));
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/live', 'health/ready', 'metrics', 'v1/metrics', 'u/:token'] });
  setupSwagger(app, app.get(WebhookEvents).payloadSchemas());
}
