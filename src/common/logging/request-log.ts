import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Principal } from '../principal.js';

/** One line per request: id, account, route, status and latency. */
export function logEveryRequest(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const logger = request.log as Logger;
    if (logger.isLevelEnabled('info')) {
      if (reply.statusCode >= 500) logger.error(summaryOf(request, reply), 'request failed');
      else logger.info(summaryOf(request, reply), 'request completed');
    }
    done();
  });
}

const summaryOf = (request: FastifyRequest, reply: FastifyReply) => ({
  accountId: (request as { user?: Principal }).user?.accountId ?? null,
  method: request.method,
  route: request.routeOptions.url ?? null,
  status: reply.statusCode,
  latencyMs: Math.round(reply.elapsedTime * 10) / 10,
});
