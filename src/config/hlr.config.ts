import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const hlrConfig = registerAs('hlr', () => {
  const env = parseEnvironment(process.env);
  return {
    /** `local`: answers from the numbering plan, no network; `http`: the vendor at `url`. */
    provider: env.HLR_PROVIDER,
    url: env.HLR_URL,
    apiKey: env.HLR_API_KEY ?? null,
    apiSecret: env.HLR_API_SECRET ?? null,
    /** One call to the vendor, headers and body included. */
    timeoutMs: env.HLR_TIMEOUT_MS,
    /** Further calls after a timeout, a network error or a vendor's transient refusal. */
    retries: env.HLR_RETRIES,
    /** Numbers one `POST /hlr` may carry. */
    maxBatch: env.HLR_MAX_BATCH,
  };
});

export type HlrConfig = ConfigType<typeof hlrConfig>;
