import { checkedFetch } from '../support/openapi-answers.js';
import { ComposeStack, containerState, printedApiKey, waitForHttp } from '../support/containers.js';
import { freePort } from '../support/processes.js';

const TO = '+2250707070707';

/** compose.yaml as the README runs it: `cp .env.example .env`, set DB_PASSWORD, `podman-compose up -d`. */
describe('compose.yaml', () => {
  let stack: ComposeStack;
  let base: string;
  let key: string | undefined;

  const call = (path: string, init: { method?: string; body?: object; key?: string } = {}) =>
    checkedFetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.key ? { Authorization: `Bearer ${init.key}` } : {}), ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
  const balance = async () => ((await (await call('/v1/account', { key })).json()) as { data: { balance: number } }).data.balance;

  beforeAll(async () => {
    const port = await freePort();
    stack = new ComposeStack('compose.yaml', { DB_PASSWORD: 'compose-e2e-password', PORT: String(port) });
    base = `http://127.0.0.1:${port}`;
    await stack.up();
    // the service starts once MariaDB has initialised its volume (it restarts until then under podman-compose)
    await waitForHttp(`${base}/health`, 150_000);
  }, 180_000);

  afterAll(() => stack?.destroy(), 120_000);

  it('serves the API: 401 without a key', async () => {
    const response = await call('/v1/account');

    expect(response.status).toBe(401);
  });

  it('prints the demo account key in the logs, and the key works', async () => {
    key = printedApiKey(await stack.logs('app'));

    expect(key).toBeDefined();
    const response = await call('/v1/account', { key });
    expect(await response.json()).toMatchObject({ status: 200, data: { name: 'Demo', balance: 1000 } });
  });

  it('sends an OTP and verifies it', async () => {
    const sent = await call('/v1/otp/send', { method: 'POST', key, body: { channel: 'SMS', to: TO, message: 'Votre code ##OTP##' } });
    const { data } = (await sent.json()) as { data: { code: string; uniq_id: string } };
    const verified = await call('/v1/otp/verify', { method: 'POST', key, body: { to: TO, code: data.code } });

    expect(sent.status).toBe(200);
    expect(await verified.json()).toMatchObject({ status: 200, message: 'success', data: { uniq_id: data.uniq_id } });
  });

  it('keeps its data when the stack is taken down and up again: the same key, the same balance', async () => {
    const before = await balance();

    await stack.stop();
    expect(await containerState(stack.container('app'))).toEqual({ status: 'exited', exitCode: 0 });
    await stack.down({ volumes: false });
    await stack.up();
    await waitForHttp(`${base}/health`, 150_000);

    expect(before).toBe(1000 - 2.5);
    expect(await balance()).toBe(before);
    expect(printedApiKey(await stack.logs('app'))).toBeUndefined();
  }, 240_000);

  it('leaves nothing behind once down', async () => {
    await stack.down({ volumes: true });

    expect(await stack.leftovers()).toEqual([]);
  }, 120_000);
});
