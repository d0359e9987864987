import { Webhook } from 'standardwebhooks';
import { LOG_RECEIPT_QUEUE } from '../src/delivery/providers/log-receipts.worker.js';
import { WEBHOOK_QUEUE } from '../src/webhook/webhook-events.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { callInstance } from './support/instance-calls.js';
import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { queryServerDatabase } from './support/server-database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const SECRET = 'log-receipts-e2e-secret-0123456789abcdef';

/** SPEC-3 §1.10: the `log` provider's DELIVRD receipts, `LOG_RECEIPT_DELAY_MS` after each hand-over. */
describe('the log provider', () => {
  describe('in the test app', () => {
    let t: TestApp;
    let tenant: Tenant;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_RECEIPT_DELAY_MS: '30000' });
      tenant = await createTenant(t);
    });
    afterAll(async () => {
      await t?.close();
      await receiver?.stop();
    });

    const message = async (uniqId: string) => (await t.http().get(`/v1/sms/out/${uniqId}`).set('Authorization', tenant.auth).expect(200)).body.data;
    const dueReceipts = () => t.database.run((sql) => sql.all<{ provider_id: string }>('SELECT provider_id FROM log_receipt'));

    it('moves an SMS from sent to delivered LOG_RECEIPT_DELAY_MS after its hand-over, with the sms.delivered event, once', async () => {
      const secret = (await t.http().put('/v1/account/webhook').set('Authorization', tenant.auth).send({ url: receiver.url('/sms'), events: ['sms.sent', 'sms.delivered'] }).expect(200))
        .body.data.secret as string;
      const sent = (await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: '+2250707072001', message: 'Bonjour' }).expect(200)).body.data;
      const uniqId = sent.messages[0].uniq_id as string;

      await t.deliver();
      await t.drain(LOG_RECEIPT_QUEUE);
      const handedOver = await message(uniqId);
      expect(await dueReceipts()).toEqual([{ provider_id: `log-${uniqId}` }]);
      t.clock.advance(30);
      await t.drain(LOG_RECEIPT_QUEUE);
      await t.drain(LOG_RECEIPT_QUEUE);
      const delivered = await message(uniqId);
      await t.drain(WEBHOOK_QUEUE);
      const hooks = await until(() => receiver.at('/sms'), (received) => received.length >= 2);

      expect(handedOver).toMatchObject({ status: 'sent', provider: 'log', provider_id: `log-${uniqId}`, provider_status: null, done_at: null });
      expect(delivered).toMatchObject({ status: 'delivered', provider: 'log', provider_status: 'DELIVRD', done_at: expect.any(String) });
      expect(await dueReceipts()).toEqual([]);
      const events = hooks.map((hook) => new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as { type: string; data: Record<string, unknown> });
      expect(events.map(({ type, data }) => [type, data.status, data.provider_status, data.sequence])).toEqual([
        ['sms.sent', 'sent', null, 1],
        ['sms.delivered', 'delivered', 'DELIVRD', 2],
      ]);
      const from = new Date(t.clock.now().getTime() - 3_600_000).toISOString();
      const to = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      const usage = (await t.http().get('/v1/metrics').query({ created_from: from, created_to: to, granularity: 'none' }).set('Authorization', tenant.auth).expect(200)).body.data;
      expect(usage.totals).toMatchObject({ messages: 1, delivery_rate: 1 });
    });

    it('leaves the sandbox to its own course', async () => {
      const sandbox = `Bearer ${(await t.admin.createApiKey(tenant.userId, true)).api_key}`;
      const sent = (await t.http().post('/v1/sms/send').set('Authorization', sandbox).send({ to: '+2250707072002', message: 'Test' }).expect(200)).body.data;
      await t.deliver();
      t.clock.advance(30);
      await t.drain(LOG_RECEIPT_QUEUE);

      expect((await t.http().get(`/v1/sms/out/${sent.messages[0].uniq_id}`).set('Authorization', sandbox).expect(200)).body.data).toMatchObject({
        status: 'sent',
        provider: 'sandbox',
      });
    });
  });

  describe('a server killed with SIGKILL before a receipt is due', () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      database = await createTestDatabase();
      const port = await freePort();
      env = productionEnv(database.env, SECRET, { PORT: String(port), LOG_RECEIPT_DELAY_MS: '10000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    });
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await database?.drop();
    });

    it('gives the receipt after the restart, once', async () => {
      const account = runCli(env, 'account:create', '--name', 'Receipts', '--balance', '100').json as { api_key: string; account_id: string };
      const base = `http://127.0.0.1:${env.PORT}`;
      const read = async (uniqId: string) => (await callInstance([base], 0, { method: 'GET', path: `/v1/sms/out/${uniqId}`, key: account.api_key })).body.data;
      server = await startServer(env);
      const webhook = { url: 'http://127.0.0.1:9/hooks', events: ['sms.sent', 'sms.delivered'] };
      await callInstance([base], 0, { method: 'PUT', path: '/v1/account/webhook', key: account.api_key, body: webhook });
      const sent = await callInstance([base], 0, { method: 'POST', path: '/v1/sms/send', key: account.api_key, body: { to: '+2250707072003', message: 'Bonjour' } });
      const uniqId = sent.body.data.messages[0].uniq_id as string;
      await until(() => read(uniqId), (message) => message.status !== 'pending');
      await server.stop('SIGKILL');
      const beforeRestart = await queryServerDatabase(env, 'SELECT status FROM message_out WHERE uniq_id = ?', [uniqId]);

      server = await startServer(env);
      const delivered = await until(() => read(uniqId), (message) => message.status === 'delivered', 30_000, 200);

      expect(beforeRestart).toEqual([{ status: 'sent' }]);
      expect(delivered).toMatchObject({ provider: 'log', provider_status: 'DELIVRD' });
      const events = await queryServerDatabase(env, "SELECT type FROM webhook_event WHERE subject_id = ? AND type = 'sms.delivered'", [uniqId]);
      expect(events).toHaveLength(1);
      expect(await queryServerDatabase(env, 'SELECT id FROM log_receipt')).toEqual([]);
    }, 120_000);
  });
});
