import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const fraudConfig = registerAs('fraud', () => {
  const env = parseEnvironment(process.env);
  return {
    /** How often each instance looks for changes of the fraud settings it caches. */
    cacheRefreshMs: env.FRAUD_CACHE_REFRESH_MS,
  };
});

export type FraudConfig = ConfigType<typeof fraudConfig>;
