import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { appConfig, type AppConfig } from '../../config/app.config.js';
import { censor, REDACTED_PATHS } from './redaction.js';

/**
 * Structured logs with pino: JSON lines in production, readable lines in
 * development. Every line written while serving a request carries its id
 * (`reqId`); one summary line per request is written by the request-log hook.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (app: AppConfig) => ({
        pinoHttp: {
          level: app.logLevel,
          genReqId: (request) => (request as { id?: string }).id ?? '',
          quietReqLogger: true,
          autoLogging: false,
          redact: { paths: REDACTED_PATHS, censor },
          transport: app.prettyLogs
            ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
            : undefined,
        },
      }),
    }),
  ],
})
export class LoggingModule {}
