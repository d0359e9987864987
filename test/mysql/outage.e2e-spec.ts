import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, runCli, startServer, type ServerProcess } from '../support/processes.js';
import { waitFor } from '../support/until.js';
import { checkedFetch, UndocumentedAnswer } from '../support/openapi-answers.js';

const SECRET = 'outage-e2e-secret-0123456789abcdef012345';
const MARIADB_LOCAL = resolve(process.cwd(), '../shared/scripts/mariadb-local.sh');
const WORKERS = 4;
const ANSWER_WITHIN_MS = 5000;

type Phase = 'before' | 'outage' | 'after';
interface Answer {
  /** 0 when no answer came (timeout or connection failure). */
  status: number;
  body: { data?: Record<string, unknown>; error?: string };
  ms: number;
}
interface Sample extends Answer {
  phase: Phase;
  request: string;
}

const recipient = (n: number) => `+2250707${String(n).padStart(6, '0')}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** The server on a MariaDB of its own that is stopped and started again while traffic runs. */
describe('a MariaDB outage under traffic', () => {
  let mariadbEnv: Record<string, string>;
  let dataDir: string;
  let env: Record<string, string>;
  let base: string;
  let server: ServerProcess | undefined;
  let exited = false;
  let account: { account_id: string; api_key: string };
  let phase: Phase = 'before';
  const samples: Sample[] = [];
  const accepted: string[] = [];

  const mariadb = async (command: string) => {
    const { stdout } = await promisify(execFile)(MARIADB_LOCAL, [command], { env: { ...process.env, ...mariadbEnv }, timeout: 120_000 });
    return stdout;
  };
  const call = async (method: string, path: string, body?: object): Promise<Answer> => {
    const started = Date.now();
    try {
      const response = await checkedFetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${account.api_key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 1000),
      });
      return { status: response.status, body: (await response.json()) as Answer['body'], ms: Date.now() - started };
    } catch (error) {
      if (error instanceof UndocumentedAnswer) throw error;
      return { status: 0, body: { error: String(error) }, ms: Date.now() - started };
    }
  };
  const tracked = async (method: string, path: string, body?: object) => {
    const at = phase;
    const answer = await call(method, path, body);
    samples.push({ phase: at, request: `${method} ${path.replace(/[0-9a-f-]{36}$/, ':id')}`, ...answer });
    return answer;
  };

  beforeAll(async () => {
    const port = await freePort();
    mariadbEnv = { MARIADB_PORT: String(port), MARIADB_DATADIR: `/tmp/outage-mariadb-${port}` };
    await mariadb('start');
    const settings = Object.fromEntries([...(await mariadb('env')).matchAll(/^export (\w+)=(.*)$/gm)].map(([, name, value]) => [name, value]));
    dataDir = mkdtempSync(join(tmpdir(), 'messaging-outage-'));
    const serverPort = await freePort();
    base = `http://127.0.0.1:${serverPort}`;
    env = {
      DB_TYPE: 'mysql',
      DB_HOST: settings.DB_HOST,
      DB_PORT: settings.DB_PORT,
      DB_NAME: settings.DB_NAME,
      DB_USER: settings.DB_USER,
      DB_PASSWORD: settings.DB_PASSWORD,
      DATA_DIR: dataDir,
      PORT: String(serverPort),
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://sms.example.com',
      LOG_LEVEL: 'warn',
      JWT_SECRET: SECRET,
      OTP_SECRET: SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
    };
    const created = runCli(env, 'account:create', '--name', 'Outage Test', '--balance', '100000');
    if (created.status !== 0) throw new Error(`account:create failed: ${created.stderr}`);
    account = created.json as typeof account;
    server = await startServer(env);
    if (!server.stdout().includes('Serving on')) throw new Error(`the server did not start: ${server.stderr()}`);
    void server.exited.then(() => (exited = true));

    let traffic = true;
    let next = 0;
    const worker = async () => {
      while (traffic) {
        const sent = await tracked('POST', '/v1/otp/send', { channel: 'SMS', to: recipient(next++), message: 'Code ##OTP##' });
        if (sent.status === 200) accepted.push(String(sent.body.data?.uniq_id));
        if (accepted.length > 0) await tracked('GET', `/v1/sms/out/${accepted[accepted.length - 1]}`);
        await tracked('GET', '/v1/account');
        await sleep(10);
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);

    try {
      await waitFor(() => accepted.length >= 10, 30_000);
      phase = 'outage';
      await mariadb('stop');
      const answeredBeforeStop = samples.length;
      await waitFor(() => samples.length >= answeredBeforeStop + 20, 30_000);
      await mariadb('start');
      await waitFor(async () => (await call('GET', '/health/ready')).status === 200, 60_000);
      phase = 'after';
      const acceptedBeforeRecovery = accepted.length;
      await waitFor(() => accepted.length >= acceptedBeforeRecovery + 5, 30_000);
    } finally {
      traffic = false;
      await Promise.all(workers);
    }

    const outage = samples.filter((sample) => sample.phase === 'outage');
    const count = (test: (sample: Sample) => boolean) => samples.filter(test).length;
    console.log(
      `outage: ${samples.length} requests tried, ${count((s) => s.status === 200)} × 200, ${count((s) => s.status === 503)} × 503, ` +
        `${count((s) => s.status >= 500 && s.status !== 503)} other 5xx, ${count((s) => s.status === 0)} unanswered, ` +
        `longest answer during the outage ${Math.max(...outage.map((s) => s.ms))} ms (${outage.length} requests)`,
    );
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (mariadbEnv) await mariadb('destroy');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('answers every request within 5 s, with 200 or 503 service_indisponible, and keeps running', () => {
    const late = samples.filter((sample) => sample.status === 0 || sample.ms > ANSWER_WITHIN_MS);
    const unexpected = samples.filter((sample) => sample.status !== 200 && sample.status !== 503);
    const unavailable = samples.filter((sample) => sample.status === 503);

    expect(late).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(unavailable.filter((sample) => sample.phase === 'outage').length).toBeGreaterThan(0);
    expect(new Set(unavailable.map((sample) => JSON.stringify(sample.body)))).toEqual(
      new Set([JSON.stringify({ status: 503, message: 'service_indisponible' })]),
    );
    expect(exited).toBe(false);
  });

  it('serves again from the same process once the database is back', async () => {
    const ready = await call('GET', '/health/ready');
    const sent = await call('POST', '/v1/otp/send', { channel: 'SMS', to: recipient(999_999), message: 'Code ##OTP##' });

    expect(ready.status).toBe(200);
    expect(sent.body).toEqual({
      status: 200,
      message: 'succès',
      data: { uniq_id: expect.any(String), code: expect.stringMatching(/^\d{6}$/), expires_at: expect.any(Number) },
    });
    expect(samples.filter((sample) => sample.phase === 'after' && sample.status === 200).length).toBeGreaterThan(0);
    expect(exited).toBe(false);
  }, 30_000);

  it('loses no send answered 200: each is readable afterwards, and the ledger agrees with the balance', async () => {
    const reads = [];
    for (let i = 0; i < accepted.length; i += 8) {
      reads.push(...(await Promise.all(accepted.slice(i, i + 8).map((id) => call('GET', `/v1/sms/out/${id}`)))));
    }

    expect(reads.map((read) => [read.status, read.body.data?.uniq_id])).toEqual(accepted.map((id) => [200, id]));
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({
      balance: expect.any(Number),
      ledger_sum: expect.any(Number),
      consistent: true,
    });
  }, 60_000);
});
