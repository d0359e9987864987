import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerAs, type ConfigType } from '@nestjs/config';
import { ConfigurationError, parseEnvironment, type EnvironmentVariables } from './environment.js';
import { checkProductionSettings, MIN_SECRET_BYTES, SECRET_NAMES } from './production-settings.js';

type SecretName = (typeof SECRET_NAMES)[number];

/**
 * Signing and HMAC keys. Production takes them from the environment only;
 * elsewhere a missing one is generated once and kept in `DATA_DIR/secrets.json`.
 */
export const secretsConfig = registerAs('secrets', () => {
  const env = parseEnvironment(process.env);
  const secrets = env.NODE_ENV === 'production' ? requiredSecrets(env) : developmentSecrets(env);
  return { jwtSecret: secrets.JWT_SECRET, otpSecret: secrets.OTP_SECRET };
});

export type SecretsConfig = ConfigType<typeof secretsConfig>;

function requiredSecrets(env: EnvironmentVariables): Record<SecretName, string> {
  checkProductionSettings(env);
  return { JWT_SECRET: env.JWT_SECRET!, OTP_SECRET: env.OTP_SECRET! };
}

function readSecretsFile(file: string): Partial<Record<SecretName, string>> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<SecretName, string>>;
  } catch {
    throw new ConfigurationError(`Invalid configuration:\n  ${file} is not valid JSON; delete it to generate new secrets`);
  }
}

function developmentSecrets(env: EnvironmentVariables): Record<SecretName, string> {
  const file = join(env.DATA_DIR, 'secrets.json');
  const stored = existsSync(file) ? readSecretsFile(file) : {};
  let changed = false;
  for (const name of SECRET_NAMES) {
    if (!env[name] && !stored[name]) {
      stored[name] = randomBytes(MIN_SECRET_BYTES).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(env.DATA_DIR, { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    JWT_SECRET: env.JWT_SECRET ?? stored.JWT_SECRET!,
    OTP_SECRET: env.OTP_SECRET ?? stored.OTP_SECRET!,
  };
}
