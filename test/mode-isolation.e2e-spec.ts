import type { Test } from 'supertest';
import { CAMPAIGN_NOT_FOUND } from '../src/campaign/campaign-status.js';
import { IMPORT_NOT_FOUND } from '../src/contact-import/contact-import.service.js';
import { HLR_NOT_FOUND } from '../src/hlr/hlr.service.js';
import { OTP_NOT_FOUND } from '../src/otp/otp-status.service.js';
import { LOT_NOT_FOUND, SMS_NOT_FOUND } from '../src/sms/sms.service.js';
import { createTenant, emailBody, smsBody, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Mode = 'live' | 'sandbox';
const notFound = (error: string) => ({ status: 404, message: 'Non trouvé', errors: [error] });

/** Every record made with a key of one mode, read or acted on by id. */
interface Records {
  otp: string;
  emailOtp: string;
  sms: string;
  lot: string;
  scheduled: string;
  hlr: string;
  hlrLot: string;
  campaign: string;
  contactImport: string;
}

/** SPEC-3 §1.8: the key's mode scopes every read by id, as it scopes lists: the other mode's record is 404, like another account's. */
describe('key modes', () => {
  let t: TestApp;
  let tenant: Tenant;
  const keys = {} as Record<Mode, string>;
  const records = {} as Record<Mode, Records>;

  const call = (mode: Mode, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object): Test => {
    const request = t.http()[method](path).set('Authorization', keys[mode]);
    return body === undefined ? request : request.send(body);
  };

  async function make(mode: Mode): Promise<Records> {
    const ok = async (path: string, body: object, status = 200) => (await call(mode, 'post', path, body).expect(status)).body.data;
    const otp = await ok('/v1/otp/send', smsBody(mode === 'live' ? '+2250707071001' : '+2250707071002'));
    const emailOtp = await ok('/v1/otp/send', emailBody(`${mode}@example.com`));
    const sms = await ok('/v1/sms/send', { to: '+2250707071003', message: 'Bonjour', lot: `lot-${mode}` });
    const sendAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const scheduled = await ok('/v1/sms/send', { to: '+2250707071004', message: 'Plus tard', send_at: sendAt });
    const hlr = await ok('/v1/hlr', { number: '+2250707071005' });
    const group = await ok('/v1/group', { name: `Groupe ${mode}` }, 201);
    const campaign = await ok('/v1/campaign', { name: 'Soldes', message: 'Soldes', group_ids: [group.id] }, 201);
    const contactImport = (await call(mode, 'post', '/v1/contact/import').set('Content-Type', 'text/csv').send('phone\n+2250707071006\n').expect(202)).body.data;
    return {
      otp: otp.uniq_id,
      emailOtp: emailOtp.uniq_id,
      sms: sms.messages[0].uniq_id,
      lot: sms.lot,
      scheduled: scheduled.messages[0].uniq_id,
      hlr: hlr.lookups[0].id,
      hlrLot: hlr.lot,
      campaign: campaign.id,
      contactImport: contactImport.id,
    };
  }

  /** Each read or action by id, with the answer a key of the other mode gets. */
  const byId = (r: Records): Array<[route: string, request: (mode: Mode) => Test, otherMode: object]> => [
    ['GET /v1/otp/{id} (SMS)', (mode) => call(mode, 'get', `/v1/otp/${r.otp}`), notFound(OTP_NOT_FOUND)],
    ['GET /v1/otp/{id} (e-mail)', (mode) => call(mode, 'get', `/v1/otp/${r.emailOtp}`), notFound(OTP_NOT_FOUND)],
    ['GET /v1/sms/out/{uniq_id}', (mode) => call(mode, 'get', `/v1/sms/out/${r.sms}`), notFound(SMS_NOT_FOUND)],
    ['GET /v1/sms/out/{uniq_id} (an OTP)', (mode) => call(mode, 'get', `/v1/sms/out/${r.otp}`), notFound(SMS_NOT_FOUND)],
    ['GET /v1/sms/out/{lot}', (mode) => call(mode, 'get', `/v1/sms/out/${r.lot}`), notFound(SMS_NOT_FOUND)],
    ['GET /v1/sms/lot/{lot}', (mode) => call(mode, 'get', `/v1/sms/lot/${r.lot}`), notFound(LOT_NOT_FOUND)],
    ['POST /v1/sms/out/{id}/webhook/resend', (mode) => call(mode, 'post', `/v1/sms/out/${r.sms}/webhook/resend`), notFound(SMS_NOT_FOUND)],
    ['POST /v1/sms/out/{id}/cancel', (mode) => call(mode, 'post', `/v1/sms/out/${r.scheduled}/cancel`, {}), notFound(SMS_NOT_FOUND)],
    ['GET /v1/hlr/{id}', (mode) => call(mode, 'get', `/v1/hlr/${r.hlr}`), notFound(HLR_NOT_FOUND)],
    ['GET /v1/hlr/{lot}', (mode) => call(mode, 'get', `/v1/hlr/${r.hlrLot}`), notFound(HLR_NOT_FOUND)],
    ['GET /v1/campaign/{id}', (mode) => call(mode, 'get', `/v1/campaign/${r.campaign}`), { status: 404, message: CAMPAIGN_NOT_FOUND }],
    ['PATCH /v1/campaign/{id}', (mode) => call(mode, 'patch', `/v1/campaign/${r.campaign}`, { name: 'Autre' }), { status: 404, message: CAMPAIGN_NOT_FOUND }],
    ['POST /v1/campaign/{id}/launch', (mode) => call(mode, 'post', `/v1/campaign/${r.campaign}/launch`, {}), { status: 404, message: CAMPAIGN_NOT_FOUND }],
    ['POST /v1/campaign/{id}/cancel', (mode) => call(mode, 'post', `/v1/campaign/${r.campaign}/cancel`, {}), { status: 404, message: CAMPAIGN_NOT_FOUND }],
    ['DELETE /v1/campaign/{id}', (mode) => call(mode, 'delete', `/v1/campaign/${r.campaign}`), { status: 404, message: CAMPAIGN_NOT_FOUND }],
    ['GET /v1/contact/import/{id}', (mode) => call(mode, 'get', `/v1/contact/import/${r.contactImport}`), notFound(IMPORT_NOT_FOUND)],
  ];
  const readsById = ['GET /v1/otp/{id} (SMS)', 'GET /v1/otp/{id} (e-mail)', 'GET /v1/sms/out/{uniq_id}', 'GET /v1/sms/out/{uniq_id} (an OTP)', 'GET /v1/sms/out/{lot}', 'GET /v1/sms/lot/{lot}', 'GET /v1/hlr/{id}', 'GET /v1/hlr/{lot}', 'GET /v1/campaign/{id}', 'GET /v1/contact/import/{id}'];

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t);
    keys.live = tenant.auth;
    keys.sandbox = `Bearer ${(await t.admin.createApiKey(tenant.userId, true)).api_key}`;
    records.live = await make('live');
    records.sandbox = await make('sandbox');
    await t.deliver();
  });
  afterAll(() => t?.close());

  it.each([
    ['a sandbox key', 'sandbox', 'live'],
    ['a live key', 'live', 'sandbox'],
  ] as const)("gives %s 404 on every record of the other mode, by id, and leaves the record as it was", async (_name, caller, owner) => {
    for (const [route, request, answer] of byId(records[owner])) {
      const res = await request(caller);
      expect({ route, body: res.body }).toEqual({ route, body: answer });
    }
    const scheduled = (await call(owner, 'get', `/v1/sms/out/${records[owner].scheduled}`).expect(200)).body.data;
    expect(scheduled.status).toBe('scheduled');
    expect((await call(owner, 'get', `/v1/campaign/${records[owner].campaign}`).expect(200)).body.data).toMatchObject({ name: 'Soldes', status: 'draft' });
  });

  it.each(['live', 'sandbox'] as const)('reads every %s record by id with a key of its mode', async (mode) => {
    for (const [route, request] of byId(records[mode]).filter(([route]) => readsById.includes(route))) {
      expect({ route, status: (await request(mode)).status }).toEqual({ route, status: 200 });
    }
    expect((await call(mode, 'get', `/v1/otp/${records[mode].otp}`).expect(200)).body.data.sms_uniq_id).toBe(records[mode].otp);
  });

  it('lists only the records of the key mode', async () => {
    const listed = async (mode: Mode, path: string, key: string) =>
      ((await call(mode, 'get', path).expect(200)).body.data.items as Array<Record<string, string>>).map((item) => item[key]);

    for (const mode of ['live', 'sandbox'] as const) {
      const other = mode === 'live' ? 'sandbox' : 'live';
      expect(await listed(mode, '/v1/otp', 'uniq_id')).toEqual([records[mode].emailOtp, records[mode].otp]);
      expect(await listed(mode, '/v1/sms/out', 'uniq_id')).not.toContain(records[other].sms);
      expect(await listed(mode, '/v1/hlr', 'id')).toEqual([records[mode].hlr]);
      expect(await listed(mode, '/v1/campaign', 'id')).toEqual([records[mode].campaign]);
      expect(await listed(mode, '/v1/contact/import', 'id')).toEqual([records[mode].contactImport]);
    }
  });
});
