import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';
import { publicUrl } from './public-url.js';

export const appConfig = registerAs('app', () => {
  const env = parseEnvironment(process.env);
  return {
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    /** The base of every absolute URL the service writes, without a trailing slash. */
    publicUrl: publicUrl(env),
    dataDir: env.DATA_DIR,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    bulkBodyLimitBytes: env.BULK_BODY_LIMIT_BYTES,
    logLevel: env.LOG_LEVEL,
    /** Readable log lines instead of JSON, for a developer's terminal. */
    prettyLogs: env.NODE_ENV === 'development',
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    metricsToken: env.METRICS_TOKEN ?? null,
  };
});

export type AppConfig = ConfigType<typeof appConfig>;
