import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ApplicationLogger } from './application-logger.js';
import { applicationLogger } from './logger.js';

/**
 * Structured logs with nestjs-pino on the logger the Fastify adapter was
 * given (applicationLogger). Lines about a request are written through that
 * request's own child logger (`request.log`, carrying its `reqId`): the
 * request-log hook writes one summary line per request, the exception filter
 * the failures. nestjs-pino's middleware, which would find that logger again
 * through AsyncLocalStorage, is left out (`forRoutes: []`): on Node 20 it puts
 * a hook on every promise the service makes.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      useFactory: () => ({ pinoHttp: { logger: applicationLogger() as never }, useExisting: true, forRoutes: [] }),
    }),
  ],
  providers: [ApplicationLogger],
  exports: [ApplicationLogger],
})
export class LoggingModule {}
