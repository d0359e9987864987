import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { isOperator, type OperatorPrincipal, type Principal } from '../principal.js';

/** One line per request: id, account (or operator key), route, status and latency. */
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
  ...callerOf((request as { user?: Principal | OperatorPrincipal }).user),
  method: request.method,
  route: request.routeOptions.url ?? null,
  status: reply.statusCode,
  latencyMs: Math.round(reply.elapsedTime * 10) / 10,
});

const callerOf = (user: Principal | OperatorPrincipal | undefined) =>
  user && isOperator(user) ? { operatorKeyId: user.operatorKeyId } : { accountId: user?.accountId ?? null };
