import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from './environment.js';
import { secretsConfig } from './secrets.config.js';

const VARIABLES = ['NODE_ENV', 'DATA_DIR', 'JWT_SECRET', 'OTP_SECRET', 'PUBLIC_URL', 'OPT_OUT_LINK_BASE'] as const;
const LONG = 'k'.repeat(32);

function failureOf(): ConfigurationError {
  try {
    secretsConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('secretsConfig accepted the configuration');
}

describe('secretsConfig', () => {
  const saved = new Map<string, string | undefined>();
  let root: string;
  let dataDir: string;

  beforeEach(() => {
    for (const name of VARIABLES) saved.set(name, process.env[name]);
    root = mkdtempSync(join(tmpdir(), 'secrets-spec-'));
    dataDir = join(root, 'data');
    process.env.DATA_DIR = dataDir;
    delete process.env.JWT_SECRET;
    delete process.env.OTP_SECRET;
    delete process.env.OPT_OUT_LINK_BASE;
    process.env.PUBLIC_URL = 'https://sms.example.com';
  });

  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(root, { recursive: true, force: true });
  });

  describe('in production', () => {
    beforeEach(() => {
      process.env.NODE_ENV = 'production';
    });

    it('refuses missing secrets, naming each', () => {
      expect(failureOf().message).toBe(
        'Invalid configuration:\n  JWT_SECRET is required when NODE_ENV=production\n  OTP_SECRET is required when NODE_ENV=production',
      );
    });

    it('names a missing PUBLIC_URL with the missing secrets', () => {
      delete process.env.PUBLIC_URL;
      expect(failureOf().message).toBe(
        'Invalid configuration:\n  JWT_SECRET is required when NODE_ENV=production\n  OTP_SECRET is required when NODE_ENV=production\n' +
          '  PUBLIC_URL is required in production',
      );
    });

    it('takes OPT_OUT_LINK_BASE, the former name of PUBLIC_URL, for it', () => {
      delete process.env.PUBLIC_URL;
      process.env.OPT_OUT_LINK_BASE = 'https://sms.example.com';
      process.env.JWT_SECRET = LONG;
      process.env.OTP_SECRET = LONG;
      expect(secretsConfig()).toEqual({ jwtSecret: LONG, otpSecret: LONG });
    });

    it('refuses a secret shorter than 32 bytes, naming only it', () => {
      process.env.JWT_SECRET = 'k'.repeat(31);
      process.env.OTP_SECRET = LONG;
      expect(failureOf().message).toBe('Invalid configuration:\n  JWT_SECRET must be at least 32 bytes when NODE_ENV=production');
    });

    it('counts bytes, not characters', () => {
      process.env.JWT_SECRET = 'é'.repeat(16);
      process.env.OTP_SECRET = LONG;
      expect(secretsConfig()).toEqual({ jwtSecret: 'é'.repeat(16), otpSecret: LONG });
    });

    it('takes the secrets from the environment and writes nothing', () => {
      process.env.JWT_SECRET = LONG;
      process.env.OTP_SECRET = `${LONG}-otp`;
      expect(secretsConfig()).toEqual({ jwtSecret: LONG, otpSecret: `${LONG}-otp` });
      expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false);
    });
  });

  describe.each(['development', 'test'])('in %s', (nodeEnv) => {
    beforeEach(() => {
      process.env.NODE_ENV = nodeEnv;
    });

    it('generates the secrets once into DATA_DIR/secrets.json, readable by the owner only', () => {
      const secrets = secretsConfig();
      expect(secrets.jwtSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(secrets.otpSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(secrets.jwtSecret).not.toBe(secrets.otpSecret);
      const file = join(dataDir, 'secrets.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ JWT_SECRET: secrets.jwtSecret, OTP_SECRET: secrets.otpSecret });
    });

    it('reuses the stored secrets on the next call', () => {
      const first = secretsConfig();
      expect(secretsConfig()).toEqual(first);
    });

    it('prefers the environment and stores only what it generated', () => {
      process.env.JWT_SECRET = 'from-the-environment';
      const secrets = secretsConfig();
      expect(secrets.jwtSecret).toBe('from-the-environment');
      expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toEqual({ OTP_SECRET: secrets.otpSecret });
    });

    it('prefers the environment over a stored secret', () => {
      const stored = secretsConfig();
      process.env.OTP_SECRET = 'from-the-environment';
      expect(secretsConfig()).toEqual({ jwtSecret: stored.jwtSecret, otpSecret: 'from-the-environment' });
    });

    it('keeps stored secrets it did not generate', () => {
      const file = join(dataDir, 'secrets.json');
      secretsConfig();
      writeFileSync(file, JSON.stringify({ JWT_SECRET: 'stored-jwt', OTP_SECRET: 'stored-otp' }));
      expect(secretsConfig()).toEqual({ jwtSecret: 'stored-jwt', otpSecret: 'stored-otp' });
    });
  });
});
