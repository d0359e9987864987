import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { applicationLogger } from './logger.js';

/**
 * Structured logs with nestjs-pino on the logger the Fastify adapter was
 * given (applicationLogger): every line written while serving a request comes
 * from that request's child logger and carries its id (`reqId`); one summary
 * line per request is written by the request-log hook.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      useFactory: () => ({ pinoHttp: { logger: applicationLogger() as never }, useExisting: true }),
    }),
  ],
})
export class LoggingModule {}
