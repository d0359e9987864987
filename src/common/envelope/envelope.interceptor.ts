import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import type { Envelope } from './envelope.js';
import { ENVELOPE_METADATA, type SuccessEnvelope } from './respond-with.decorator.js';

/** Wraps what a route returns into `{status, message, data}`; routes without `@RespondWith` answer as they are. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const success = this.reflector.get<SuccessEnvelope | undefined>(ENVELOPE_METADATA, context.getHandler());
    if (!success) return next.handle();
    return next.handle().pipe(
      map((data): Envelope => (data === undefined ? { ...success } : { ...success, data })),
    );
  }
}
