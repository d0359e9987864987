import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const webhookConfig = registerAs('webhook', () => {
  const env = parseEnvironment(process.env);
  return {
    /** One attempt's whole time: connecting (5 s at most), sending and reading the answer. */
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    /** Attempts per event before it is `exhausted`. */
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    /** Lets webhook URLs name private, loopback and other reserved addresses: for tests and local use only. */
    allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
  };
});

export type WebhookConfig = ConfigType<typeof webhookConfig>;
