import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Envelope } from '../envelope/envelope.js';
import { EnvelopingFastifyAdapter } from '../envelope/enveloping-fastify-adapter.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Security headers everywhere; the only page served, Swagger UI, needs its inline styles and data: images. */
export const SECURITY_HEADERS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      scriptSrc: ["'self'"],
      // served over plain HTTP in development: upgrading its own assets to HTTPS would break the page
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * Helmet's headers, computed once: they depend on its configuration only, and
 * running its middleware chain on every request costs more than the route.
 */
const securityHeaders: Record<string, string> = (() => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(SECURITY_HEADERS)({ headers: {} } as never, response as never, () => undefined);
  return headers;
})();

/** Sets the security headers and X-Request-Id on every answer, before routing. */
export function addStandardHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders);
    reply.header('x-request-id', request.id);
    done();
  });
}

/**
 * Fastify as the service runs it: routes answer in their success envelope
 * (EnvelopingFastifyAdapter), every request gets a request id (taken from
 * X-Request-Id when it is well formed), and the envelope is also given to what is
 * refused before routing: a URL the router cannot decode (404, it names no
 * route) and a request Node cannot parse (400, 408, or 431 for oversized headers).
 */
export function createFastifyAdapter(logger: Logger): EnvelopingFastifyAdapter {
  const adapter = new EnvelopingFastifyAdapter({
    loggerInstance: logger,
    // one summary line per request is written by the request-log hook instead
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // while closing, requests already on an open connection are still served (with `Connection: close`)
    return503OnClosing: false,
    // any id that fits in a request line reaches its route and gets that route's 404
    routerOptions: { maxParamLength: 16_384 },
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void reply
        .code(404)
        .headers(securityHeaders)
        .header('x-request-id', request.id)
        .send({ status: 404, message: 'Non trouvé' } satisfies Envelope);
    },
    clientErrorHandler: answerUnparsableRequest,
  });
  closeConnectionsWhenClosing(adapter.getInstance());
  return adapter;
}

/**
 * Once the server is closing, every answer closes its connection. Node closes
 * the keep-alive connections that are idle when it stops listening; one whose
 * request was still running would otherwise stay open until the client drops
 * it, holding up the shutdown.
 */
function closeConnectionsWhenClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

function answerUnparsableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const envelope: Envelope =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? { status: 431, message: 'requete_trop_volumineuse' }
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { status: 408, message: 'delai_depasse' }
        : { status: 400, message: 'erreur_de_validation', errors: ['requête: HTTP invalide'] };
  const body = JSON.stringify(envelope);
  socket.end(
    [
      `HTTP/1.1 ${envelope.status} ${STATUS_CODES[envelope.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'X-Content-Type-Options: nosniff',
      `X-Request-Id: ${randomUUID()}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
