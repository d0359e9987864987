import { ConfigurationError, type EnvironmentVariables } from './environment.js';

export const MIN_SECRET_BYTES = 32;
export const SECRET_NAMES = ['JWT_SECRET', 'OTP_SECRET'] as const;

/**
 * What production must be given rather than default: signing keys of 32
 * bytes or more (a generated one would differ on each instance) and the
 * public address (a link to localhost in an SMS reaches nobody). Every missing
 * one is named at once.
 */
export function checkProductionSettings(env: EnvironmentVariables): void {
  const problems = SECRET_NAMES.flatMap((name) => {
    const value = env[name];
    if (!value) return [`${name} is required when NODE_ENV=production`];
    if (Buffer.byteLength(value) < MIN_SECRET_BYTES) return [`${name} must be at least ${MIN_SECRET_BYTES} bytes when NODE_ENV=production`];
    return [];
  });
  if (env.PUBLIC_URL === undefined && env.OPT_OUT_LINK_BASE === undefined) problems.push('PUBLIC_URL is required in production');
  if (problems.length > 0) throw new ConfigurationError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
