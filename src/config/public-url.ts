import type { EnvironmentVariables } from './environment.js';
import { checkProductionSettings } from './production-settings.js';

/**
 * The service's public address (SPEC-3 §1.11), the base of every absolute URL
 * it writes, without a trailing slash: `PUBLIC_URL`, else its former name
 * `OPT_OUT_LINK_BASE`, else `http://localhost:${PORT}`. Production has no
 * default: the service refuses to start without it.
 */
export function publicUrl(env: EnvironmentVariables): string {
  const given = env.PUBLIC_URL ?? env.OPT_OUT_LINK_BASE;
  if (given !== undefined) return given.replace(/\/+$/, '');
  if (env.NODE_ENV === 'production') checkProductionSettings(env);
  return `http://localhost:${env.PORT}`;
}
