import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedTypes } from '../http/csv-body.js';
import { DEFAULT_INTERNAL_ERROR_MESSAGE, type ErrorRouteConfig } from './internal-error-message.decorator.js';
import { toErrorAnswer } from './error-envelope.js';

/** Every failure, from a service, the framework or a driver, leaves as the documented envelope. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const routeConfig = request.routeOptions?.config as ErrorRouteConfig | undefined;
    const answer = toErrorAnswer(exception, routeConfig?.internalErrorMessage ?? DEFAULT_INTERNAL_ERROR_MESSAGE, acceptedTypes(request));

    if (answer.unexpected) {
      request.log.error(
        { context: 'Errors', err: exception, route: request.routeOptions?.url, status: answer.envelope.status },
        'request failed',
      );
    }
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    void reply.status(answer.envelope.status).type('application/json; charset=utf-8').send(answer.envelope);
  }
}
