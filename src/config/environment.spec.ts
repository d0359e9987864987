import { ConfigurationError, parseEnvironment } from './environment.js';

function failureOf(raw: Record<string, unknown>): ConfigurationError {
  try {
    parseEnvironment(raw);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('parseEnvironment accepted the configuration');
}

describe('parseEnvironment', () => {
  it('applies the defaults to an empty environment', () => {
    expect(parseEnvironment({})).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      HOST: '0.0.0.0',
      DB_TYPE: 'sqlite',
      DB_PATH: undefined,
      DATA_DIR: './data',
      PUBLIC_URL: undefined,
      OPT_OUT_LINK_BASE: undefined,
      LOG_RECEIPT_DELAY_MS: 2000,
      DB_HOST: '127.0.0.1',
      DB_PORT: 3306,
      DB_NAME: 'messaging',
      DB_USER: undefined,
      JWT_SECRET: undefined,
      SMS_PROVIDER: 'log',
      EMAIL_TRANSPORT: 'log',
      EMAIL_FROM: 'no-reply@localhost',
      OTP_MAX_ATTEMPTS: 5,
      OTP_MAX_SENDS_PER_RECIPIENT: 5,
      OTP_SEND_WINDOW_SECONDS: 900,
      RATE_LIMIT_PER_MINUTE: 60000,
      BODY_LIMIT_BYTES: 102400,
      LOG_LEVEL: 'info',
    });
  });

  it('treats an empty value as unset', () => {
    expect(parseEnvironment({ PORT: '', DB_TYPE: '' })).toMatchObject({ PORT: 3000, DB_TYPE: 'sqlite' });
  });

  it('reads integers written as integers', () => {
    expect(parseEnvironment({ PORT: '8080', OTP_MAX_ATTEMPTS: ' 3 ', RATE_LIMIT_PER_MINUTE: '0' })).toMatchObject({
      PORT: 8080,
      OTP_MAX_ATTEMPTS: 3,
      RATE_LIMIT_PER_MINUTE: 0,
    });
  });

  it('keeps the values given for strings and enums', () => {
    expect(
      parseEnvironment({ NODE_ENV: 'production', DB_TYPE: 'mysql', DB_USER: 'app', SMPP_URL: 'smpp://sys:pw@smsc.example.com:2775' }),
    ).toMatchObject({ NODE_ENV: 'production', DB_TYPE: 'mysql', DB_USER: 'app', SMPP_URL: 'smpp://sys:pw@smsc.example.com:2775' });
  });

  it('ignores variables it does not know', () => {
    expect(parseEnvironment({ PATH: '/usr/bin', UNRELATED: 'x' })).not.toHaveProperty('UNRELATED');
  });

  it.each([['12abc'], ['1.5'], ['1e3'], ['0x10'], ['three']])('refuses %j for an integer', (value) => {
    expect(failureOf({ PORT: value }).message).toContain(`PORT=${JSON.stringify(value)}`);
  });

  it('refuses integers out of range', () => {
    expect(failureOf({ DB_PORT: '70000' }).message).toContain('DB_PORT="70000"');
  });

  it('reads a list of database hosts, and refuses one that is not host:port,…', () => {
    expect(parseEnvironment({ DB_HOSTS: 'db1:3306,10.0.0.2:3307' })).toMatchObject({ DB_HOSTS: 'db1:3306,10.0.0.2:3307' });
    for (const bad of ['db1', 'db1:3306,', 'db1:70000', 'db1:3306, db2:3306', 'db1:0']) {
      expect(failureOf({ DB_HOSTS: bad }).message).toContain('DB_HOSTS must be a list of host:port separated by commas');
    }
  });

  it('refuses malformed URLs', () => {
    expect(failureOf({ SMPP_URL: 'http://smsc' }).message).toContain(
      'SMPP_URL="http://smsc": SMPP_URL must look like smpp://system_id:password@host:port',
    );
  });

  it('names every bad variable in one error', () => {
    const error = failureOf({ PORT: 'x', DB_TYPE: 'oracle', LOG_LEVEL: 'loud', OTP_MAX_ATTEMPTS: '0', HOST: 'ok' });
    expect(error.name).toBe('ConfigurationError');
    const lines = error.message.split('\n').slice(1).map((line) => line.trim().split('=')[0]);
    expect(lines.sort()).toEqual(['DB_TYPE', 'LOG_LEVEL', 'OTP_MAX_ATTEMPTS', 'PORT']);
  });
});
