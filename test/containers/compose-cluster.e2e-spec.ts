import { randomBytes, randomUUID } from 'node:crypto';
import { checkedFetch } from '../support/openapi-answers.js';
import { ComposeStack, STOP_SECONDS, containerAddress, containerState, podman, waitForHttp } from '../support/containers.js';
import { countByStatus, type InstanceAnswer, type Json } from '../support/instance-calls.js';
import { freePort } from '../support/processes.js';
import { until } from '../support/until.js';

const COST = 2.5;
const INSTANCES = ['app1', 'app2', 'app3'];
const MESSAGE = 'Votre code ##OTP##';

const recipient = (n: number) => `+2250709${String(n).padStart(6, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * compose.cluster.yaml as docs/deploy.md runs it under podman-compose: the Galera nodes and the migration first, then
 * three instances behind HAProxy. Every request goes through HAProxy; accounts are made with the command line inside
 * an instance's container.
 */
describe('compose.cluster.yaml', () => {
  let stack: ComposeStack;
  let base: string;

  const call = async (path: string, key: string, body?: object, idempotencyKey?: string): Promise<InstanceAnswer> => {
    const response = await checkedFetch(`${base}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
  };
  const send = (key: string, to: string) => call('/v1/otp/send', key, { channel: 'SMS', to, message: MESSAGE });
  /**
   * A send as a careful client makes it through a load balancer: with an Idempotency-Key, sent again with the same key
   * after a short pause, growing, when the connection closes without an answer. The instance that stops fails its
   * health check first (SHUTDOWN_DRAIN_MS), so none should; what the balancer logged is in the error if one does.
   */
  const sendRetried = async (key: string, to: string): Promise<InstanceAnswer> => {
    const idempotencyKey = randomUUID();
    for (let attempt = 1; ; attempt++) {
      try {
        return await call('/v1/otp/send', key, { channel: 'SMS', to, message: MESSAGE }, idempotencyKey);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        if (attempt === 8) throw new Error(`${String(error.cause ?? error)} 8 times; HAProxy logged:\n${await stack.logs('haproxy')}`);
        await sleep(250 * attempt);
      }
    }
  };
  const balance = async (key: string) => (await call('/v1/account', key)).body.data.balance as number;
  const cli = async (...args: string[]) => JSON.parse(await podman('exec', stack.container('app1'), 'node', 'dist/cli.js', ...args)) as Json;
  const newAccount = async (name: string, balance: string) => (await cli('account:create', '--name', name, '--balance', balance)) as { account_id: string; api_key: string };

  beforeAll(async () => {
    const port = await freePort();
    const secret = () => randomBytes(36).toString('base64url');
    stack = new ComposeStack('compose.cluster.yaml', {
      DB_PASSWORD: 'cluster-e2e-password',
      PORT: String(port),
      JWT_SECRET: secret(),
      OTP_SECRET: secret(),
      PUBLIC_URL: `http://localhost:${port}`,
    });
    base = `http://127.0.0.1:${port}`;
    // podman-compose 1.0 does not wait on `condition`: the nodes and the migration, then the rest
    await stack.up('migrate');
    await until(() => containerState(stack.container('migrate')), (state) => state.status === 'exited' && state.exitCode === 0, 240_000, 1000);
    await stack.up();
    for (const instance of INSTANCES) await waitForHttp(`http://${await containerAddress(stack.container(instance))}:3000/health`, 120_000);
    await waitForHttp(`${base}/health`, 30_000);
  }, 420_000);

  afterAll(() => stack?.destroy(), 180_000);

  it('gives exactly one 200 to 50 simultaneous verifications of one code through HAProxy', async () => {
    const account = await newAccount('Verifications', '100');
    const sent = await send(account.api_key, recipient(1));

    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call('/v1/otp/verify', account.api_key, { to: recipient(1), code: sent.body.data.code })),
    );

    expect(sent.status).toBe(200);
    const counts = countByStatus(answers);
    expect(counts[200]).toBe(1);
    expect(Object.keys(counts).filter((status) => !['200', '400', '429'].includes(status))).toEqual([]);
  }, 60_000);

  it('accepts exactly 10 of 40 simultaneous sends on a balance for 10, credited with the command line', async () => {
    const account = await newAccount('Sends', '0');
    expect(await cli('account:credit', '--account', account.account_id, '--amount', String(10 * COST))).toEqual({ balance: 10 * COST });

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => send(account.api_key, recipient(100 + i))));

    expect(countByStatus(answers)).toEqual({ 200: 10, 402: 30 });
    expect(await balance(account.api_key)).toBe(0);
  }, 60_000);

  it('keeps answering through the other two while an instance is stopped under traffic, taken out while it drains, and charges each send once', async () => {
    const account = await newAccount('Traffic', '100000');
    const answers: InstanceAnswer[] = [];
    let next = 200;
    let running = true;
    const client = async () => {
      while (running) answers.push(await sendRetried(account.api_key, recipient(next++)));
    };

    const clients = Array.from({ length: 4 }, client);
    await sleep(2000);
    await podman('stop', '-t', String(STOP_SECONDS), stack.container('app2'));
    await sleep(3000);
    running = false;
    await Promise.all(clients);

    expect(answers.length).toBeGreaterThan(10);
    expect(countByStatus(answers)).toEqual({ 200: answers.length });
    expect(await containerState(stack.container('app2'))).toEqual({ status: 'exited', exitCode: 0 });
    // taken out by its failing health check while it still served, not by its closed listener
    expect(await stack.logs('haproxy')).toMatch(/instances\/app2 is DOWN, reason: Layer7 wrong status, code: 503/);
    expect(await balance(account.api_key)).toBe(100000 - COST * answers.length);
  }, 120_000);
});
