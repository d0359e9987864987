import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Envelope } from './envelope.js';
import type { EnvelopeRouteConfig } from './respond-with.decorator.js';

/**
 * Nest's Fastify adapter, answering what a route returns inside the success
 * envelope its `@RespondWith` declares: `{status, message, data}`, without
 * `data` when the route returns nothing. Routes without one answer as they
 * are, and so does anything else sent with another status (errors leave
 * through EnvelopeExceptionFilter, already enveloped). `reply` is where Nest
 * hands a route's result to Fastify; wrapping it here rather than in an
 * interceptor spares every request the rxjs pipeline that any interceptor
 * puts it through, which cost more than the envelope itself.
 */
export class EnvelopingFastifyAdapter extends FastifyAdapter {
  override reply(response: FastifyReply, body: unknown, statusCode?: number) {
    const success = (response.request?.routeOptions.config as EnvelopeRouteConfig | undefined)?.envelope;
    if (!success || (statusCode ?? response.statusCode) !== success.status) return super.reply(response, body, statusCode);
    const envelope: Envelope = body === undefined ? { ...success } : { ...success, data: body };
    return super.reply(response, envelope, statusCode);
  }
}
