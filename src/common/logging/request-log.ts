import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Principal } from '../../auth/principal.js';

/** One line per request: id, account, route, status and latency. */
export function logEveryRequest(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const logger = request.log as Logger;
    if (!logger.isLevelEnabled('info')) return;
    const status = reply.statusCode;
    const line = {
      accountId: (request as { user?: Principal }).user?.accountId ?? null,
      method: request.method,
      route: request.routeOptions.url ?? null,
      status,
      latencyMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (status >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request completed');
  });
}
