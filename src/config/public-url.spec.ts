import { appConfig } from './app.config.js';
import { databaseConfig } from './database.config.js';
import { ConfigurationError } from './environment.js';
import { optOutConfig } from './opt-out.config.js';

const VARIABLES = ['NODE_ENV', 'PORT', 'PUBLIC_URL', 'OPT_OUT_LINK_BASE', 'DB_PATH', 'DATA_DIR', 'JWT_SECRET', 'OTP_SECRET'] as const;

describe('the public address and the database file', () => {
  const saved = new Map<string, string | undefined>();

  beforeEach(() => {
    for (const name of VARIABLES) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
  });
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('is http://localhost:PORT by default, the base of unsubscribe links too', () => {
    process.env.PORT = '8081';
    expect(appConfig().publicUrl).toBe('http://localhost:8081');
    expect(optOutConfig().linkBase).toBe('http://localhost:8081');
  });

  it('is PUBLIC_URL without its trailing slashes, else OPT_OUT_LINK_BASE, its former name', () => {
    process.env.OPT_OUT_LINK_BASE = 'https://old.example.com';
    expect(appConfig().publicUrl).toBe('https://old.example.com');
    process.env.PUBLIC_URL = 'https://sms.example.com/base//';
    expect(appConfig().publicUrl).toBe('https://sms.example.com/base');
    expect(optOutConfig().linkBase).toBe('https://sms.example.com/base');
  });

  it('is required in production', () => {
    Object.assign(process.env, { NODE_ENV: 'production', JWT_SECRET: 'k'.repeat(32), OTP_SECRET: 'k'.repeat(32) });
    expect(() => appConfig()).toThrow(new ConfigurationError('Invalid configuration:\n  PUBLIC_URL is required in production'));
    process.env.PUBLIC_URL = 'https://sms.example.com';
    expect(appConfig().publicUrl).toBe('https://sms.example.com');
  });

  it('refuses a PUBLIC_URL that is not an http(s) URL', () => {
    process.env.PUBLIC_URL = 'sms.example.com';
    expect(() => appConfig()).toThrow('PUBLIC_URL must be an http(s) URL such as https://sms.example.com');
  });

  it('keeps the SQLite file in DATA_DIR unless DB_PATH names it', () => {
    expect(databaseConfig().path).toBe('./data/messaging.sqlite');
    process.env.DATA_DIR = '/var/lib/messaging/';
    expect(databaseConfig().path).toBe('/var/lib/messaging/messaging.sqlite');
    process.env.DB_PATH = '/srv/db.sqlite';
    expect(databaseConfig().path).toBe('/srv/db.sqlite');
  });
});
