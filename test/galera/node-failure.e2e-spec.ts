import { galera } from '../support/galera.js';
import { checkedFetch, UndocumentedAnswer } from '../support/openapi-answers.js';
import { productionEnv, runCli, startInstances, type ServerProcess } from '../support/processes.js';
import { queryServerDatabase as query } from '../support/server-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/until.js';

const SECRET = 'galera-node-failure-e2e-secret-012345678';
const INSTANCES = 3;
const WORKERS_PER_INSTANCE = 2;
const ANSWER_WITHIN_MS = 5000;
/** The instance (0-based) whose preferred node (node 2) is killed. */
const ON_KILLED_NODE = 1;

type Phase = 'before' | 'down' | 'back';
interface Sample {
  phase: Phase;
  instance: number;
  /** 0 when no answer came (timeout or connection failure). */
  status: number;
  body: { data?: Record<string, unknown>; error?: string };
  ms: number;
  /** When the request was sent, in ms since the node was killed. */
  at: number;
}

const recipient = (n: number) => `+2250709${String(n).padStart(6, '0')}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Three instances, one per node, under traffic while node 2 is killed (SIGKILL) and restarted. The instance on
 * node 2 lists the others after it in DB_HOSTS and fails over; the others keep serving; nothing accepted is lost.
 */
describe('a Galera node killed under traffic', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let account: { account_id: string; api_key: string };
  const servers: Array<ServerProcess & { base: string }> = [];
  const samples: Sample[] = [];
  const accepted: string[] = [];
  let phase: Phase = 'before';
  let killedAt = 0;
  let exited = 0;

  const call = async (instance: number, method: string, path: string, body?: object) => {
    const started = Date.now();
    try {
      const response = await checkedFetch(`${servers[instance]!.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${account.api_key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 1000),
      });
      return { status: response.status, body: (await response.json()) as Sample['body'], ms: Date.now() - started, at: started - killedAt };
    } catch (error) {
      if (error instanceof UndocumentedAnswer) throw error;
      return { status: 0, body: { error: String(error) }, ms: Date.now() - started, at: started - killedAt };
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    env = productionEnv(database.env, SECRET);
    const created = runCli(env, 'account:create', '--name', 'Galera Node Failure', '--balance', '100000');
    if (created.status !== 0) throw new Error(`account:create failed: ${created.stderr}`);
    account = created.json as typeof account;
    servers.push(...(await startInstances(env, INSTANCES)));
    for (const server of servers) void server.exited.then(() => exited++);

    let traffic = true;
    let next = 0;
    const worker = async (instance: number) => {
      while (traffic) {
        const at = phase;
        const sent = await call(instance, 'POST', '/v1/otp/send', { channel: 'SMS', to: recipient(next++), message: 'Code ##OTP##' });
        samples.push({ phase: at, instance, ...sent });
        if (sent.status === 200) accepted.push(String(sent.body.data?.uniq_id));
        await sleep(20);
      }
    };
    const workers = servers.flatMap((_, instance) => Array.from({ length: WORKERS_PER_INSTANCE }, () => worker(instance)));

    try {
      await waitFor(() => accepted.length >= 30, 30_000);
      killedAt = Date.now();
      phase = 'down';
      await galera('kill', '2');
      await waitFor(() => samples.filter((sample) => sample.phase === 'down' && sample.at > 6000).length >= 30, 60_000);
      await galera('restart', '2');
      phase = 'back';
      const acceptedBack = accepted.length;
      await waitFor(() => accepted.length >= acceptedBack + 30, 30_000);
    } finally {
      traffic = false;
      await Promise.all(workers);
    }

    const count = (test: (sample: Sample) => boolean) => samples.filter(test).length;
    console.log(
      `node 2 killed: ${samples.length} sends, ${count((s) => s.status === 200)} × 200, ${count((s) => s.status === 503)} × 503, ` +
        `${count((s) => s.status === 0)} unanswered; on the instance of node 2 while it was down: ` +
        `${count((s) => s.phase === 'down' && s.instance === ON_KILLED_NODE && s.status === 200)} × 200, ` +
        `${count((s) => s.phase === 'down' && s.instance === ON_KILLED_NODE && s.status === 503)} × 503; ` +
        `longest answer ${Math.max(...samples.map((s) => s.ms))} ms`,
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }, 60_000);

  it('answers every send within 5 s, with 200 or 503 service_indisponible, and no instance stops', () => {
    expect(samples.filter((sample) => sample.status === 0 || sample.ms > ANSWER_WITHIN_MS)).toEqual([]);
    expect(samples.filter((sample) => sample.status !== 200 && sample.status !== 503)).toEqual([]);
    for (const refused of samples.filter((sample) => sample.status === 503)) {
      expect(refused.body).toEqual({ status: 503, message: 'service_indisponible' });
    }
    expect(exited).toBe(0);
  });

  it('fails the instance of node 2 over within 5 s, while the others keep serving', () => {
    const killedNodeInstance = samples.filter((sample) => sample.phase === 'down' && sample.instance === ON_KILLED_NODE);
    expect(killedNodeInstance.filter((sample) => sample.at > ANSWER_WITHIN_MS).every((sample) => sample.status === 200)).toBe(true);
    for (const instance of [0, 2]) {
      expect(samples.filter((sample) => sample.phase === 'down' && sample.instance === instance && sample.status === 200).length).toBeGreaterThan(0);
    }
  });

  it('serves from every instance, unrestarted, once node 2 is back', () => {
    for (let instance = 0; instance < INSTANCES; instance++) {
      expect(samples.filter((sample) => sample.phase === 'back' && sample.instance === instance && sample.status === 200).length).toBeGreaterThan(0);
    }
  });

  it('loses no send answered 200: each is stored and handed over, and the ledger agrees with the balance', async () => {
    await waitFor(async () => Number((await query(env, 'SELECT COUNT(*) AS count FROM outbox'))[0]!.count) === 0, 90_000);
    const stored = new Map(
      (await query(env, "SELECT uniq_id, status FROM message_out WHERE account_id = ? AND type = 'otp'", [account.account_id])).map((row) => [
        String(row.uniq_id),
        String(row.status),
      ]),
    );

    expect(accepted.filter((id) => stored.get(id) !== 'sent')).toEqual([]);
    expect(runCli(env, 'account:audit', '--account', account.account_id).json).toEqual({
      balance: expect.any(Number),
      ledger_sum: expect.any(Number),
      consistent: true,
    });
  }, 120_000);
});
