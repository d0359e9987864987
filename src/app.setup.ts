import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { registerBodyParsers } from './common/http/body-parsers.js';
import { setupSwagger } from './common/http/swagger.js';
import { appConfig, type AppConfig } from './config/app.config.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify as the service runs it: a request id on every request, taken from X-Request-Id when it is well formed. */
export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
  });
}

/** Everything the running service and the e2e tests share beyond the module graph. */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const config = app.get<AppConfig>(appConfig.KEY);
  const fastify = app.getHttpAdapter().getInstance();
  registerBodyParsers(fastify, config.bodyLimitBytes);
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/live', 'health/ready'] });
  app.enableShutdownHooks();
  setupSwagger(app);
}
