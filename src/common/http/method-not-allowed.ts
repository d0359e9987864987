import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { toErrorAnswer } from '../errors/error-envelope.js';
import { DEFAULT_INTERNAL_ERROR_MESSAGE } from '../errors/internal-error-message.decorator.js';

/** Checks the request's credential as the global guard does; throws its 401 (or 503) when it is refused. */
export type Authenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A request for a path the service serves with other methods is answered
 * `405 methode_non_autorisee` with `Allow`, once its credential has been
 * checked: without a valid one it is 401, as on the path's own methods. A path
 * the service does not serve at all stays the router's 404.
 */
export function answerOtherMethods(fastify: FastifyInstance, authenticate: Authenticate): void {
  const routes = FindMyWay({ ignoreTrailingSlash: fastify.initialConfig.ignoreTrailingSlash });
  const methods = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      methods.add(method);
      routes.on(method as HTTPMethod, route.url, () => undefined);
    }
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const path = request.url.split('?', 1)[0];
    const allowed = METHOD_ORDER.filter((method) => methods.has(method) && routes.find(method as HTTPMethod, path) !== null);
    if (allowed.length === 0) return;
    try {
      await authenticate(request, reply);
      reply.header('allow', allowed.join(', '));
      throw ApiError.methodNotAllowed(request.method, allowed);
    } catch (error) {
      const { envelope, retryAfterSeconds } = toErrorAnswer(error, DEFAULT_INTERNAL_ERROR_MESSAGE);
      if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
      return reply.code(envelope.status).type('application/json; charset=utf-8').send(envelope);
    }
  });
}
