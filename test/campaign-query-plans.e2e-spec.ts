import { DataSource } from 'typeorm';
import { CAMPAIGN_FINISH_POLL_MS, CAMPAIGN_QUEUE } from '../src/campaign/campaign.worker.js';
import type { Statement } from '../src/database/statements.js';
import { createTenant, type Tenant } from './support/fixtures.js';
import { explainable, fullScans, recordStatements } from './support/query-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const phoneOf = (n: number) => `+22507${String(100_000_000 + n).slice(1)}`;

/** Every statement of a campaign's life (drafts, lists, launch, worker, counts, cancel) seeks through an index, on tables holding thousands of rows. */
describe('query plans of campaigns', () => {
  let t: TestApp;
  let ran: Statement[];

  beforeAll(async () => {
    t = await startTestApp();
    const call = (tenant: Tenant, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
      const pending = t.http()[method](path).set('Authorization', tenant.auth);
      return body ? pending.send(body) : pending;
    };
    const groupOf = async (tenant: Tenant, phones: string[]) => {
      const id = (await call(tenant, 'post', '/v1/group', { name: `Groupe ${Math.random()}` }).expect(201)).body.data.id as string;
      for (let start = 0; start < phones.length; start += 1000) await call(tenant, 'post', `/v1/group/${id}/contacts`, { phones: phones.slice(start, start + 1000) }).expect(200);
      return id;
    };
    const campaign = async (tenant: Tenant, groupIds: string[], extra: object = {}) =>
      (await call(tenant, 'post', '/v1/campaign', { name: 'Soldes', message: 'Soldes ##NAME##', group_ids: groupIds, ...extra }).expect(201)).body.data.id as string;

    // another tenant fills the tables: campaigns done, with their recipients and messages
    const filler = await createTenant(t, { balance: '100000.00' });
    const everyone = await groupOf(filler, Array.from({ length: 2000 }, (_, n) => phoneOf(n)));
    for (let n = 0; n < 2; n++) await call(filler, 'post', `/v1/campaign/${await campaign(filler, [everyone])}/launch`, {}).expect(200);
    for (let n = 0; n < 30; n++) await campaign(filler, [everyone]);
    await t.drain(CAMPAIGN_QUEUE);
    await t.deliver();
    t.clock.advance(CAMPAIGN_FINISH_POLL_MS / 1000);
    await t.drain(CAMPAIGN_QUEUE);
    if (t.database.dialect === 'mysql') await t.database.run((sql) => sql.all('ANALYZE TABLE campaign, campaign_recipient, message_out, message_lot'));

    const tenant = await createTenant(t);
    const group = await groupOf(tenant, ['+2250101010101', '+2250101010102', '+2250101010103']);
    const excluded = await groupOf(tenant, ['+2250101010103']);
    const recording = recordStatements(t.app.get(DataSource));
    const sent = await campaign(tenant, [group], { exclude_group_ids: [excluded] });
    const dropped = await campaign(tenant, [group]);
    const deleted = await campaign(tenant, [group]);
    await call(tenant, 'patch', `/v1/campaign/${dropped}`, { name: 'Autre' }).expect(200);
    await call(tenant, 'delete', `/v1/campaign/${deleted}`).expect(200);
    await call(tenant, 'post', `/v1/campaign/${sent}/launch`, {}).expect(200);
    await call(tenant, 'post', `/v1/campaign/${dropped}/launch`, { send_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString() }).expect(200);
    await t.drain(CAMPAIGN_QUEUE);
    await call(tenant, 'get', `/v1/campaign/${sent}`).expect(200);
    for (const query of ['', 'status=running', 'status=scheduled']) {
      const page = await call(tenant, 'get', `/v1/campaign?limit=1&${query}`).expect(200);
      if (page.body.data.next_cursor) await call(tenant, 'get', `/v1/campaign?limit=1&${query}&cursor=${page.body.data.next_cursor}`).expect(200);
    }
    await call(tenant, 'post', `/v1/campaign/${dropped}/cancel`, {}).expect(200);
    await t.deliver();
    t.clock.advance(CAMPAIGN_FINISH_POLL_MS / 1000);
    await t.drain(CAMPAIGN_QUEUE);
    recording.stop();
    ran = explainable(recording.statements).filter((statement) => /\b(campaign|campaign_recipient|campaign_id)\b/.test(statement.query));
  }, 120_000);
  afterAll(() => t?.close());

  it('ran the statements of drafts, lists, launch, the worker, counts and cancel', () => {
    for (const shape of [
      /FROM campaign WHERE id = \? AND account_id = \? AND sandbox = \?/,
      /FROM campaign WHERE account_id = \? AND sandbox = \? AND status = \?/,
      /FROM campaign WHERE available_at <= \?/,
      /FROM campaign_recipient\s+WHERE campaign_id = \? AND n >= \?/,
      /SUM\(amount\) AS total FROM campaign_recipient/,
      /GROUP BY campaign_id, status/,
      /campaign_id = \? AND status IN \('scheduled', 'pending'\)/,
      /campaign_id = \? AND status = 'scheduled'/,
      /UPDATE campaign SET position = \?/,
      /UPDATE campaign SET status = 'done'/,
      /UPDATE campaign SET status = 'cancelled'/,
    ]) {
      expect({ shape: String(shape), ran: ran.some((statement) => shape.test(statement.query)) }).toEqual({ shape: String(shape), ran: true });
    }
  });

  it('seeks through an index in every one of them', async () => {
    const plans = await Promise.all(ran.map(async (statement) => ({ query: statement.query, scans: await fullScans(t.app.get(DataSource), statement) })));
    expect(plans).toEqual(ran.map((statement) => ({ query: statement.query, scans: [] })));
  });
});
