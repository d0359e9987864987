import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parsePhone } from '../common/recipient.js';
import type { Metrics } from './metrics.js';

/** What an answer of each OTP route means, by status. */
const SEND_OUTCOMES: Record<number, string> = {
  200: 'accepted',
  400: 'invalid',
  402: 'insufficient_balance',
  403: 'blocked',
  409: 'in_flight',
  422: 'idempotency_mismatch',
  429: 'rate_limited',
};
const VERIFY_OUTCOMES: Record<number, string> = { 200: 'verified', 400: 'rejected', 410: 'expired', 429: 'locked' };
const CHANNELS = new Set(['SMS', 'EMAIL']);

/**
 * Observes every answer: latency by route and status, and OTP outcomes, by
 * destination country for SMS (the numbers were read by the request, and are
 * read again here from parsePhone's cache), so that a country's verified ÷
 * sent is its conversion.
 */
export function recordRequestMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    metrics.requestDuration.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
    if (route === '/v1/otp/send') {
      const channel = channelOf(request);
      const country = channel === 'SMS' ? countryOf(request) : undefined;
      metrics.otpSends.inc({ channel, outcome: outcome(SEND_OUTCOMES, status), ...(country && { country }) });
    } else if (route === '/v1/otp/verify') {
      metrics.otpVerifications.inc({ outcome: outcome(VERIFY_OUTCOMES, status) });
      if (status === 200) {
        const country = countryOf(request);
        metrics.otpVerified.inc(country ? { country } : {});
      }
    }
    done();
  });
}

/** The country of the request's `to` when it is a phone number. */
function countryOf(request: FastifyRequest): string | undefined {
  const to = (request.body as { to?: unknown } | null | undefined)?.to;
  return typeof to === 'string' && !to.includes('@') ? (parsePhone(to)?.country ?? undefined) : undefined;
}

function outcome(outcomes: Record<number, string>, status: number): string {
  if (status === 401) return 'unauthorized';
  return outcomes[status] ?? (status >= 500 ? 'error' : 'other');
}

function channelOf(request: FastifyRequest): string {
  const channel = (request.body as { channel?: unknown } | null | undefined)?.channel;
  return typeof channel === 'string' && CHANNELS.has(channel) ? channel : 'invalid';
}
