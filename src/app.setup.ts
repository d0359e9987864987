import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import { registerBodyParsers } from './common/http/body-parsers.js';
import { logEveryRequest } from './common/logging/request-log.js';
import { setupSwagger } from './common/http/swagger.js';
import { appConfig, type AppConfig } from './config/app.config.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Security headers everywhere; the only page served, Swagger UI, needs its inline styles and data: images. */
const SWAGGER_UI_CSP = {
  directives: {
    defaultSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    scriptSrc: ["'self'"],
    // served over plain HTTP in development: upgrading its own assets to HTTPS would break the page
    upgradeInsecureRequests: null,
  },
};

/** Fastify as the service runs it: a request id on every request, taken from X-Request-Id when it is well formed. */
export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    // long ids reach their route and get its own 404
    routerOptions: { maxParamLength: 1000 },
    // a URL the router cannot decode names no route
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void reply.code(404).header('x-request-id', request.id).send({ status: 404, message: 'Non trouvé' });
    },
  });
}

/** Everything the running service and the e2e tests share beyond the module graph. */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const config = app.get<AppConfig>(appConfig.KEY);
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  await app.register(helmet, { contentSecurityPolicy: SWAGGER_UI_CSP });
  registerBodyParsers(fastify, config.bodyLimitBytes);
  logEveryRequest(fastify, PinoLogger.root);
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/live', 'health/ready'] });
  app.enableShutdownHooks();
  setupSwagger(app);
}
