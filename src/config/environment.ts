import { plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

/** `host:port` with a port from 1 to 65535, and a list of them separated by commas. */
const HOST_PORT = '[^\\s,:]+:(?:6553[0-5]|655[0-2]\\d|65[0-4]\\d\\d|6[0-4]\\d{3}|[1-5]\\d{4}|[1-9]\\d{0,3})';
const HOST_LIST = new RegExp(`^${HOST_PORT}(?:,${HOST_PORT})*$`);

/** Every setting the service reads, with its default (see `.env.example`). */
export class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Server processes sharing the port: a count, or `auto` for one per core (see src/server-workers.ts). */
  @Matches(/^(auto|[1-9]\d{0,2})$/, { message: 'WORKERS must be auto or a count from 1 to 999' })
  WORKERS = '1';

  @IsString()
  HOST = '0.0.0.0';

  /** After SIGTERM, how long readiness fails while requests are still served, before the listener closes. */
  @IsInt()
  @Min(0)
  @Max(60000)
  SHUTDOWN_DRAIN_MS = 0;

  @IsIn(['sqlite', 'mysql'])
  DB_TYPE: 'sqlite' | 'mysql' = 'sqlite';

  /** The SQLite file; default `<DATA_DIR>/messaging.sqlite` (see databaseConfig). */
  @IsOptional()
  @IsString()
  DB_PATH?: string = undefined;

  @IsString()
  DB_HOST = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  DB_PORT = 3306;

  /** Several servers (a Galera cluster's nodes), tried in order; replaces DB_HOST and DB_PORT. */
  @IsOptional()
  @Matches(HOST_LIST, {
    message: 'DB_HOSTS must be a list of host:port separated by commas',
  })
  DB_HOSTS?: string = undefined;

  @IsOptional()
  @IsString()
  DB_USER?: string = undefined;

  @IsOptional()
  @IsString()
  DB_PASSWORD?: string = undefined;

  @IsString()
  DB_NAME = 'messaging';

  @IsInt()
  @Min(1)
  @Max(1000)
  DB_POOL_SIZE = 10;

  @IsString()
  DATA_DIR = './data';

  @IsOptional()
  @IsString()
  @MinLength(1)
  JWT_SECRET?: string = undefined;

  @IsOptional()
  @IsString()
  @MinLength(1)
  OTP_SECRET?: string = undefined;

  @IsIn(['log', 'smpp'])
  SMS_PROVIDER: 'log' | 'smpp' = 'log';

  @IsOptional()
  @Matches(/^smpps?:\/\/[^:@/]+:[^@/]*@[^:/]+:\d+\/?$/, {
    message: 'SMPP_URL must look like smpp://system_id:password@host:port',
  })
  SMPP_URL?: string = undefined;

  @IsInt()
  @Min(1)
  @Max(1000)
  SMPP_WINDOW = 10;

  /** A YAML or JSON file of SMS connectors and routes; replaces SMS_PROVIDER and SMPP_URL. */
  @IsOptional()
  @IsString()
  SMS_ROUTING_FILE?: string = undefined;

  /** Days an HLR answer stays good for routing by network (`mccmnc`). */
  @IsInt()
  @Min(1)
  @Max(3650)
  HLR_ROUTING_TTL = 30;

  /** The `log` provider's DELIVRD receipt comes this long after each hand-over; 0: none. */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  LOG_RECEIPT_DELAY_MS = 2000;

  @IsIn(['log', 'smtp'])
  EMAIL_TRANSPORT: 'log' | 'smtp' = 'log';

  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must start with smtp:// or smtps://' })
  SMTP_URL?: string = undefined;

  @IsString()
  EMAIL_FROM = 'no-reply@localhost';

  @IsInt()
  @Min(5)
  @Max(3600)
  OUTBOX_LEASE_SECONDS = 60;

  @IsInt()
  @Min(1)
  OUTBOX_MAX_AGE_SECONDS = 300;

  @IsInt()
  @Min(1000)
  @Max(60000)
  WEBHOOK_TIMEOUT_MS = 15000;

  @IsInt()
  @Min(1)
  @Max(20)
  WEBHOOK_MAX_ATTEMPTS = 8;

  @IsIn(['true', 'false'], { message: 'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true' | 'false' = 'false';

  @IsInt()
  @Min(1)
  @Max(100)
  OTP_MAX_ATTEMPTS = 5;

  @IsInt()
  @Min(1)
  OTP_MAX_SENDS_PER_RECIPIENT = 5;

  @IsInt()
  @Min(1)
  OTP_SEND_WINDOW_SECONDS = 900;

  @IsInt()
  @Min(1)
  OTP_MAX_FAILED_VERIFICATIONS = 20;

  @IsInt()
  @Min(1)
  OTP_FAILED_VERIFICATION_WINDOW_SECONDS = 86400;

  /** How often each instance looks for changes of the accounts' fraud settings it caches (at most 30 s stale whatever this is). */
  @IsInt()
  @Min(100)
  @Max(15000)
  FRAUD_CACHE_REFRESH_MS = 5000;

  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_MINUTE = 60000;

  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 102400;

  @IsInt()
  @Min(1024)
  BULK_BODY_LIMIT_BYTES = 1048576;

  @IsString()
  @MinLength(1)
  OPT_OUT_TEXT = 'Désabo: {link}';

  /** The service's public address: the base of every absolute URL it writes (unsubscribe links); see publicUrl. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'PUBLIC_URL must be an http(s) URL such as https://sms.example.com' })
  PUBLIC_URL?: string = undefined;

  /** The former name of PUBLIC_URL, still read when PUBLIC_URL is not set. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'OPT_OUT_LINK_BASE must be an http(s) URL such as https://sms.example.com' })
  OPT_OUT_LINK_BASE?: string = undefined;

  @IsIn(['true', 'false'], { message: 'OPT_OUT_BLOCKS_OTP must be true or false' })
  OPT_OUT_BLOCKS_OTP: 'true' | 'false' = 'false';

  @IsIn(['true', 'false'], { message: 'OPT_OUT_CONFIRMATION must be true or false' })
  OPT_OUT_CONFIRMATION: 'true' | 'false' = 'false';

  @IsInt()
  @Min(1)
  @Max(50000)
  SMS_MAX_RECIPIENTS_PER_REQUEST = 10000;

  @IsInt()
  @Min(1)
  @Max(366)
  SMS_MAX_SCHEDULE_DAYS = 35;

  @IsInt()
  @Min(0)
  @Max(86400)
  SMS_DUPLICATE_WINDOW_SECONDS = 0;

  @IsInt()
  @Min(1)
  @Max(1000000)
  CAMPAIGN_MAX_RECIPIENTS = 50000;

  @IsInt()
  @Min(1)
  @Max(3600)
  CAMPAIGN_LEASE_SECONDS = 60;

  @IsInt()
  @Min(1024)
  CONTACT_IMPORT_MAX_BYTES = 5242880;

  @IsInt()
  @Min(1)
  CONTACT_IMPORT_MAX_ROWS = 50000;

  @IsInt()
  @Min(1)
  @Max(3600)
  CONTACT_IMPORT_LEASE_SECONDS = 60;

  @IsIn(['local', 'http'])
  HLR_PROVIDER: 'local' | 'http' = 'local';

  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'HLR_URL must be an http(s) URL' })
  HLR_URL = 'https://api.nexmo.com/ni/advanced/json';

  @IsOptional()
  @IsString()
  @MinLength(1)
  HLR_API_KEY?: string = undefined;

  @IsOptional()
  @IsString()
  @MinLength(1)
  HLR_API_SECRET?: string = undefined;

  @IsInt()
  @Min(100)
  @Max(120000)
  HLR_TIMEOUT_MS = 10000;

  @IsInt()
  @Min(0)
  @Max(5)
  HLR_RETRIES = 2;

  @IsInt()
  @Min(1)
  @Max(1000)
  HLR_MAX_BATCH = 1000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string = undefined;
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

const INTEGER = /^-?\d+$/;

/**
 * Reads the environment into typed settings. Integers must be written as
 * integers; every bad variable is named in one error.
 */
export function parseEnvironment(raw: NodeJS.ProcessEnv | Record<string, unknown>): EnvironmentVariables {
  const defaults = new EnvironmentVariables();
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = raw[key];
    if (value === undefined || value === '') continue;
    const typical = (defaults as unknown as Record<string, unknown>)[key];
    input[key] = typeof typical === 'number' && typeof value === 'string' && INTEGER.test(value.trim())
      ? Number(value)
      : value;
  }
  const settings = plainToInstance(EnvironmentVariables, input, { exposeDefaultValues: true });
  const errors = validateSync(settings, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((error) => {
      const shown = (raw as Record<string, unknown>)[error.property];
      const problems = Object.values(error.constraints ?? {});
      // decorators run bottom-up: the last problem is the first rule written (the type before the range)
      return `${error.property}=${JSON.stringify(shown)}: ${problems[problems.length - 1]}`;
    });
    throw new ConfigurationError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return settings;
}
