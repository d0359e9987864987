import { pino, type Logger } from 'pino';
import { appConfig } from '../../config/app.config.js';
import { censor, REDACTED_PATHS } from './redaction.js';

export interface LoggerSettings {
  level: string;
  /** Readable lines for a developer's terminal instead of JSON. */
  pretty: boolean;
}

/**
 * The one pino logger of the service: Fastify derives each request's logger
 * from it (carrying `reqId`), and the application logs through it.
 */
export function createLogger(settings: LoggerSettings): Logger {
  return pino({
    level: settings.level,
    redact: { paths: REDACTED_PATHS, censor },
    transport: settings.pretty
      ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
      : undefined,
  });
}

let shared: Logger | undefined;

/** The process's logger, made once from the configuration, for the HTTP adapter and the application alike. */
export function applicationLogger(): Logger {
  const settings = appConfig();
  shared ??= createLogger({ level: settings.logLevel, pretty: settings.prettyLogs });
  return shared;
}
