import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServer, type ServerProcess } from './support/processes.js';
import { checkedFetch } from './support/openapi-answers.js';

const STRONG = 'x'.repeat(40);

/** `npm start` on an empty embedded database. */
describe('first run', () => {
  let dir: string;
  let server: ServerProcess | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'messaging-first-run-'));
  });

  afterEach(async () => {
    await server?.stop();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const embedded = (port: number, extra: Record<string, string> = {}) => ({
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    DATA_DIR: dir,
    DB_TYPE: 'sqlite',
    DB_PATH: join(dir, 'messaging.sqlite'),
    JWT_SECRET: '',
    OTP_SECRET: '',
    ...extra,
  });

  it('migrates, creates the demo account and prints its API key once', async () => {
    const port = await freePort();
    server = await startServer(embedded(port));
    const key = /mk_live_[A-Za-z0-9_-]{43}/.exec(server.stdout())?.[0];
    expect(key).toBeDefined();

    const response = await checkedFetch(`http://127.0.0.1:${port}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await response.json()).toEqual({
      status: 200,
      message: 'OK',
      data: expect.objectContaining({ name: 'Demo', balance: 1000 }),
    });
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);

    await server.stop();
    server = await startServer(embedded(port));
    expect(server.stdout()).toContain('Serving on');
    expect(server.stdout()).not.toMatch(/mk_live_/);
    const again = await checkedFetch(`http://127.0.0.1:${port}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
  });

  it('logs readable lines, not JSON, in development, with the phone number masked', async () => {
    const port = await freePort();
    server = await startServer(embedded(port, { LOG_LEVEL: 'info' }));
    const key = /mk_live_[A-Za-z0-9_-]{43}/.exec(server.stdout())![0];
    await checkedFetch(`http://127.0.0.1:${port}/v1/otp/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'SMS', to: '+2250707071234', message: 'Code ##OTP##' }),
    });
    const logged = () => server!.stdout().split('\n').filter((line) => line.includes('request completed'));
    for (let waited = 0; logged().length === 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));

    const line = logged()[0];
    expect(() => JSON.parse(line)).toThrow();
    expect(line).toContain('/v1/otp/send');
    expect(server.stdout()).toContain('1234');
    expect(server.stdout()).not.toContain('+2250707071234');
  });

  it('refuses to start in production without secrets, naming them', async () => {
    server = await startServer(embedded(await freePort(), { NODE_ENV: 'production' }));
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('JWT_SECRET is required when NODE_ENV=production');
    expect(server.stderr()).toContain('OTP_SECRET is required when NODE_ENV=production');
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });

  it('refuses secrets shorter than 32 bytes in production', async () => {
    server = await startServer(embedded(await freePort(), { NODE_ENV: 'production', JWT_SECRET: 'short', OTP_SECRET: STRONG }));
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('JWT_SECRET must be at least 32 bytes');
  });

  it('creates no demo account in production', async () => {
    const port = await freePort();
    server = await startServer(embedded(port, { NODE_ENV: 'production', JWT_SECRET: STRONG, OTP_SECRET: STRONG, PUBLIC_URL: 'https://sms.example.com' }));
    expect(server.stdout()).toContain('Serving on');
    expect(server.stdout()).not.toMatch(/mk_live_/);
    const health = await checkedFetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
  });

  it('names every invalid variable and exits', async () => {
    server = await startServer(embedded(await freePort(), { PORT: 'abc', DB_TYPE: 'oracle' }));
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('PORT="abc"');
    expect(server.stderr()).toContain('DB_TYPE="oracle"');
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });
});
