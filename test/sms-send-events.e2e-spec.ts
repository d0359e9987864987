import { createTenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** The `sms.*` events of messages sent with POST /sms/send go to the request's `webhook_url`. */
describe('POST /v1/sms/send events', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const bodiesAt = async (path: string, count: number) =>
    (await until(() => receiver.at(path), (hooks) => hooks.length >= count)).map((hook) => JSON.parse(hook.body) as { type: string; data: Record<string, unknown> });

  it('reports sms.sent for a message handed over and sms.cancelled for one cancelled, with its lot, external_id and amount', async () => {
    const tenant = await createTenant(t);
    const send = (body: object) =>
      t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ webhook_url: receiver.url('/bulk'), external_id: 'commande-7', ...body }).expect(200);

    const now = (await send({ to: '+2250707070701', message: 'Maintenant' })).body.data;
    await t.deliver();
    const later = (await send({ to: '+2250707070702', message: 'Plus tard', send_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString() })).body.data;
    await t.http().post(`/v1/sms/out/${later.lot}/cancel`).set('Authorization', tenant.auth).expect(200);
    const events = await bodiesAt('/bulk', 2);

    const byType = new Map(events.map((event) => [event.type, event.data]));
    expect([...byType.keys()].sort()).toEqual(['sms.cancelled', 'sms.sent']);
    expect(byType.get('sms.sent')).toMatchObject({ uniq_id: now.messages[0].uniq_id, lot: now.lot, external_id: 'commande-7', to: '+2250707070701', status: 'sent', amount: 2.5 });
    expect(byType.get('sms.cancelled')).toMatchObject({ uniq_id: later.messages[0].uniq_id, lot: later.lot, status: 'cancelled', amount: 2.5 });
  });
});
