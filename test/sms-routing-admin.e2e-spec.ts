import smpp from 'smpp';
import { FakeSmsc } from './support/fake-smsc.js';
import { createOperator, createTenant, type Tenant } from './support/fixtures.js';
import { connector, forgetRouting, routingFile, startRoutedApp, submitsTo } from './support/routing.js';
import type { TestApp } from './support/test-app.js';
import { until } from './support/until.js';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0034';
const OPERATOR_ONLY = { status: 403, message: 'acces_refuse', errors: ["Authorization: route réservée aux clés d'opérateur (mk_op_…)"] };
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The only account the route `vip-otp` takes. */
const VIP_ACCOUNT = '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e99';
const invalid = (...errors: string[]) => ({ status: 400, message: 'erreur_de_validation', errors });
const list = (items: unknown[]) => ({ status: 200, message: 'succès', data: { items, next_cursor: null, has_more: false } });

let numbers = 0;
const orangeNumber = () => `+2250701${String(++numbers).padStart(6, '0')}`;
const senegalNumber = () => `+22177${String(++numbers).padStart(7, '0')}`;

/** The operator's view of the routing: connectors, drains, routes, dry runs, a message's attempts; /health and /metrics. */
describe('/v1/admin connectors and routes', () => {
  const orange = new FakeSmsc();
  const mtn = new FakeSmsc();
  const agg = new FakeSmsc();
  let t: TestApp;
  let operator: string;
  let tenant: Tenant;

  beforeAll(async () => {
    await Promise.all([orange.start(), mtn.start(), agg.start()]);
    const file = routingFile({
      connectors: [connector('orange', orange, { tps: 50 }), connector('mtn', mtn, { binds: 2 }), connector('agg', agg)],
      routes: [
        { name: 'vip-otp', match: { prefixes: ['+22507'], accounts: [VIP_ACCOUNT], traffic: 'otp' }, strategy: 'failover', targets: [{ connector: 'mtn' }] },
        {
          name: 'ci-orange',
          match: { prefixes: ['+22507'] },
          strategy: 'failover',
          targets: [
            { connector: 'orange', cost: 0.012 },
            { connector: 'agg', cost: 0.02 },
          ],
        },
        { name: 'sn-agg', match: { prefixes: ['+221'] }, strategy: 'round_robin', targets: [{ connector: 'agg', weight: 3 }] },
      ],
    });
    t = await startRoutedApp(file, [orange, mtn, agg], { METRICS_TOKEN });
    await until(() => mtn.binds, (binds) => binds === 2);
    operator = await createOperator(t);
    tenant = await createTenant(t, { balance: '1000.00' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([orange.stop(), mtn.stop(), agg.stop()]);
    forgetRouting();
    process.env.METRICS_TOKEN = '';
  });

  const get = (path: string, query: Record<string, string> = {}, auth = operator) => t.http().get(path).query(query).set('Authorization', auth);
  const post = (path: string, auth = operator) => t.http().post(path).set('Authorization', auth);
  const sendSms = async (to: string) => {
    const res = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to, message: 'Votre colis arrive.' }).expect(200);
    return res.body.data.messages[0].uniq_id as string;
  };
  const connectorView = (id: string, changes: Record<string, unknown> = {}) => ({
    id,
    healthy: true,
    binds: { bound: id === 'mtn' ? 2 : 1, total: id === 'mtn' ? 2 : 1 },
    circuit: 'closed',
    drained: false,
    tps: id === 'orange' ? 50 : null,
    rate: id === 'orange' ? 50 : null,
    in_flight: 0,
    last_error: null,
    since: expect.stringMatching(TIME),
    ...changes,
  });
  const scrape = async () => (await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
  const sample = (metrics: string, series: string) => {
    const line = metrics.split('\n').find((each) => each.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('opens its routes to operator keys only', async () => {
    const routes = ['/v1/admin/connectors', '/v1/admin/routes', '/v1/admin/routes/resolve?to=%2B2250701000000', `/v1/admin/messages/${VIP_ACCOUNT}`];
    for (const path of routes) {
      expect({ path, body: (await t.http().get(path).set('Authorization', tenant.auth)).body }).toEqual({ path, body: OPERATOR_ONLY });
      expect({ path, status: (await t.http().get(path)).status }).toEqual({ path, status: 401 });
    }
    for (const action of ['drain', 'enable']) expect((await post(`/v1/admin/connectors/orange/${action}`, tenant.auth)).body).toEqual(OPERATOR_ONLY);
    expect((await get('/v1/admin/connectors')).body.data.items.map((each: { drained: boolean }) => each.drained)).toEqual([false, false, false]);
  });

  it('lists the connectors with their binds, circuit, rate and health, in the order of the file', async () => {
    expect((await get('/v1/admin/connectors')).body).toEqual(list([connectorView('orange'), connectorView('mtn'), connectorView('agg')]));
  });

  it('lists the routes in force, each target with its health, cost and weight', async () => {
    expect((await get('/v1/admin/routes')).body).toEqual(
      list([
        {
          name: 'vip-otp',
          match: { prefixes: ['+22507'], mccmnc: [], accounts: [VIP_ACCOUNT], traffic: 'otp' },
          strategy: 'failover',
          targets: [{ connector: 'mtn', healthy: true, cost: null, weight: 1 }],
        },
        {
          name: 'ci-orange',
          match: { prefixes: ['+22507'], mccmnc: [], accounts: [], traffic: 'any' },
          strategy: 'failover',
          targets: [
            { connector: 'orange', healthy: true, cost: 0.012, weight: 1 },
            { connector: 'agg', healthy: true, cost: 0.02, weight: 1 },
          ],
        },
        {
          name: 'sn-agg',
          match: { prefixes: ['+221'], mccmnc: [], accounts: [], traffic: 'any' },
          strategy: 'round_robin',
          targets: [{ connector: 'agg', healthy: true, cost: null, weight: 3 }],
        },
      ]),
    );
  });

  it('resolves the route a number would take by prefix, account and traffic, without sending it', async () => {
    const submits = orange.submits.length + mtn.submits.length + agg.submits.length;
    const resolve = async (query: Record<string, string>) => (await get('/v1/admin/routes/resolve', query)).body;
    const ciOrange = {
      route: 'ci-orange',
      targets: [
        { connector: 'orange', healthy: true, cost: 0.012, weight: 1 },
        { connector: 'agg', healthy: true, cost: 0.02, weight: 1 },
      ],
      chosen: 'orange',
      mccmnc: null,
    };

    expect(await resolve({ to: '+2250701020304' })).toEqual({ status: 200, message: 'succès', data: ciOrange });
    expect(await resolve({ to: '+2250701020304', account_id: VIP_ACCOUNT })).toEqual({ status: 200, message: 'succès', data: ciOrange });
    expect((await resolve({ to: '+2250701020304', account_id: VIP_ACCOUNT, traffic: 'otp' })).data).toEqual({
      route: 'vip-otp',
      targets: [{ connector: 'mtn', healthy: true, cost: null, weight: 1 }],
      chosen: 'mtn',
      mccmnc: null,
    });
    expect((await resolve({ to: '+33612345678' })).data).toEqual({ route: null, targets: [], chosen: null, mccmnc: null });
    expect(orange.submits.length + mtn.submits.length + agg.submits.length).toBe(submits);

    expect(await resolve({})).toEqual(invalid('to: est obligatoire'));
    expect(await resolve({ to: '0701020304', account_id: 'abc', traffic: 'any' })).toEqual(
      invalid(
        'to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)',
        'account_id: doit être un identifiant (UUID)',
        'traffic: doit valoir otp ou bulk',
      ),
    );
  });

  it('drains a connector on demand: its route fails over, /health and the dry run say so; enabling it brings it back', async () => {
    const drained = await post('/v1/admin/connectors/orange/drain');
    expect(drained.body).toEqual({ status: 200, message: 'succès', data: connectorView('orange', { healthy: false, drained: true }) });
    expect((await post('/v1/admin/connectors/orange/drain')).body).toEqual({
      status: 409,
      message: 'transition_invalide',
      errors: ['status: connecteur déjà retiré des routes'],
    });
    expect((await get('/v1/admin/routes/resolve', { to: orangeNumber() })).body.data).toEqual(
      expect.objectContaining({ route: 'ci-orange', chosen: 'agg', targets: expect.arrayContaining([expect.objectContaining({ connector: 'orange', healthy: false })]) }),
    );
    const ready = (await t.http().get('/health/ready').expect(200)).body.data.info.smpp;
    expect(ready).toEqual({
      status: 'up',
      state: 'bound',
      connectors: {
        orange: { healthy: false, binds: { bound: 1, total: 1 }, circuit: 'closed', drained: true },
        mtn: { healthy: true, binds: { bound: 2, total: 2 }, circuit: 'closed', drained: false },
        agg: { healthy: true, binds: { bound: 1, total: 1 }, circuit: 'closed', drained: false },
      },
      routes_without_connector: [],
    });

    const whileDrained = orangeNumber();
    await sendSms(whileDrained);
    await t.deliver();
    expect([submitsTo(orange, whileDrained).length, submitsTo(agg, whileDrained).length]).toEqual([0, 1]);
    const metrics = await scrape();
    expect(sample(metrics, 'sms_route_total{route="ci-orange",connector="agg",pick="fallback"}')).toBeGreaterThanOrEqual(1);
    expect(sample(metrics, 'sms_connector_healthy{connector="orange"}')).toBe(0);

    expect((await post('/v1/admin/connectors/orange/enable')).body).toEqual({ status: 200, message: 'succès', data: connectorView('orange') });
    expect((await post('/v1/admin/connectors/orange/enable')).body).toEqual({ status: 409, message: 'transition_invalide', errors: ['status: connecteur déjà actif'] });
    const afterwards = orangeNumber();
    await sendSms(afterwards);
    await t.deliver();
    expect([submitsTo(orange, afterwards).length, submitsTo(agg, afterwards).length]).toEqual([1, 0]);

    for (const action of ['drain', 'enable']) {
      expect((await post(`/v1/admin/connectors/nowhere/${action}`)).body).toEqual({ status: 404, message: 'Connecteur non trouvé' });
    }
  });

  it('reports /health down while a route has no connector that can take a message, and keeps the drain in the database', async () => {
    await post('/v1/admin/connectors/agg/drain').expect(200);
    try {
      const down = await t.http().get('/health/ready').expect(503);
      expect(down.body).toEqual({
        status: 503,
        message: 'service_indisponible',
        data: {
          database: { status: 'up' },
          outbox: { status: 'up' },
          smpp: {
            status: 'down',
            connectors: {
              orange: { healthy: true, binds: { bound: 1, total: 1 }, circuit: 'closed', drained: false },
              mtn: { healthy: true, binds: { bound: 2, total: 2 }, circuit: 'closed', drained: false },
              agg: { healthy: false, binds: { bound: 1, total: 1 }, circuit: 'closed', drained: true },
            },
            routes_without_connector: ['sn-agg'],
          },
        },
      });
      expect(await t.database.run((sql) => sql.all('SELECT connector FROM sms_connector_drain'))).toEqual([{ connector: 'agg' }]);
      expect((await get('/v1/admin/routes/resolve', { to: senegalNumber() })).body.data).toEqual({
        route: 'sn-agg',
        targets: [{ connector: 'agg', healthy: false, cost: null, weight: 3 }],
        chosen: null,
        mccmnc: null,
      });
    } finally {
      await post('/v1/admin/connectors/agg/enable').expect(200);
    }
    await t.http().get('/health/ready').expect(200);
    expect(await t.database.run((sql) => sql.all('SELECT connector FROM sms_connector_drain'))).toEqual([]);
  });

  it("reads any account's message with every submit to a connector, and counts them on /metrics", async () => {
    const before = await scrape();
    orange.answerNext(smpp.ESME_RTHROTTLED);
    const to = orangeNumber();
    const uniqId = await sendSms(to);
    await t.deliver();

    const res = await get(`/v1/admin/messages/${uniqId}`);
    expect(res.body).toEqual({
      status: 200,
      message: 'succès',
      data: expect.objectContaining({
        uniq_id: uniqId,
        company_id: tenant.accountId,
        to,
        status: 'sent',
        provider: 'orange',
        provider_id: submitsTo(orange, to)[0]!.messageId,
        dlr_number_retry: 1,
        attempts: [
          { connector: 'orange', outcome: 'throttled', at: expect.stringMatching(TIME) },
          { connector: 'orange', outcome: 'accepted', at: expect.stringMatching(TIME) },
        ],
      }),
    });
    const { attempts: _attempts, ...asTheAccountReadsIt } = res.body.data;
    expect(asTheAccountReadsIt).toEqual((await t.http().get(`/v1/sms/out/${uniqId}`).set('Authorization', tenant.auth)).body.data);

    expect(await orange.sendReceipt(submitsTo(orange, to)[0]!.messageId, 'DELIVRD')).toBe(smpp.ESME_ROK);
    const after = await scrape();
    const grew = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(grew('sms_submit_total{connector="orange",outcome="accepted"}')).toBe(1);
    expect(grew('sms_submit_total{connector="orange",outcome="throttled"}')).toBe(1);
    expect(grew('sms_submit_seconds_count{connector="orange"}')).toBe(2);
    expect(grew('sms_route_total{route="ci-orange",connector="orange",pick="primary"}')).toBe(1);
    expect(grew('sms_receipts_total{connector="orange",status="DELIVRD"}')).toBe(1);
    expect(grew('sms_supplier_cost_total{connector="orange"}')).toBeCloseTo(0.012, 6);
    expect(sample(after, 'smpp_binds_bound{connector="mtn"}')).toBe(2);
    expect(sample(after, 'sms_connector_healthy{connector="orange"}')).toBe(1);

    expect((await get('/v1/admin/messages/0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10')).body).toEqual({
      status: 404,
      message: 'Non trouvé',
      errors: ['uniq_id: aucun SMS pour cet identifiant'],
    });
    expect((await get('/v1/admin/messages/pas-un-id')).status).toBe(404);
  });
});
