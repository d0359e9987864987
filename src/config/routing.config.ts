import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const routingConfig = registerAs('routing', () => {
  const env = parseEnvironment(process.env);
  return {
    /** Connectors and routes; null: one connector from SMS_PROVIDER and SMPP_URL. */
    file: env.SMS_ROUTING_FILE ?? null,
    /** A stored HLR answer routes its number by network for this long. */
    hlrTtlMs: env.HLR_ROUTING_TTL * 86_400_000,
  };
});

export type RoutingConfig = ConfigType<typeof routingConfig>;
