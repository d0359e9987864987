import request from 'supertest';
import { createTenant, type Tenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const LINK = /Désabo: http:\/\/sms\.example\.test\/u\/([A-Za-z0-9_-]{46})$/;

/** Links in sent messages and the public page they open (`/u/{token}`, outside /v1, HTML). */
describe('unsubscribe links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ OPT_OUT_LINK_BASE: 'http://sms.example.test/' });
  });
  afterAll(async () => {
    await t?.close();
  });

  // the pages are outside the API and its document: read without the OpenAPI check
  const page = () => request(t.app.getHttpServer());
  const send = (tenant: Tenant, body: object) => t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send(body);
  async function sentLink(tenant: Tenant, to: string): Promise<{ token: string; text: string; page: number }> {
    const data = (await send(tenant, { to, message: 'Soldes ce week-end !', append_opt_out: true }).expect(200)).body.data;
    const text = await t.database.run(async (sql) => (await sql.get<{ message: string }>('SELECT message FROM message_out WHERE uniq_id = ?', [data.messages[0].uniq_id]))!.message);
    return { token: LINK.exec(text)![1]!, text, page: data.messages[0].page };
  }
  const entriesOf = (tenant: Tenant) =>
    t.database.run((sql) => sql.all<{ phone: string; source: string; sandbox: number | boolean }>('SELECT phone, source, sandbox FROM opt_out WHERE account_id = ?', [tenant.accountId]));

  it('appends OPT_OUT_TEXT with the link of each recipient, counted in segments', async () => {
    const tenant = await createTenant(t);

    const first = await sentLink(tenant, '+2250707070701');
    const second = await sentLink(tenant, '+2250707070702');

    expect(first.text).toMatch(/^Soldes ce week-end !\nDésabo: http:\/\/sms\.example\.test\/u\//);
    expect(first.token).not.toBe(second.token);
    expect(first.page).toBe(1);
    expect((await send(tenant, { to: '+2250707070703', message: 'x'.repeat(100), append_opt_out: true }).expect(200)).body.data.messages[0].page).toBe(2);
  });

  it("shows a French confirmation page naming the sender, with a form and no script", async () => {
    const tenant = await createTenant(t, { name: 'Boutique Awa' });
    const { token } = await sentLink(tenant, '+2250707070711');

    const shown = await page().get(`/u/${token}`).expect(200);

    expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(shown.text).toContain('<html lang="fr">');
    expect(shown.text).toContain('Boutique Awa');
    expect(shown.text).toContain('finissant par 0711');
    expect(shown.text).toContain('<form method="post">');
    expect(shown.text).not.toMatch(/<script/i);
    expect(await entriesOf(tenant)).toEqual([]);
  });

  it('records the opt-out (source link) when the form is sent, once, and later sends refuse the number', async () => {
    const tenant = await createTenant(t);
    const { token } = await sentLink(tenant, '+2250707070721');

    const done = await page().post(`/u/${token}`).type('form').send('').expect(200);
    await page().post(`/u/${token}`).type('form').send('').expect(200);
    const later = await send(tenant, { to: ['+2250707070721', '+2250707070722'], message: 'Encore' }).expect(200);
    const refused = await t.http().delete('/v1/opt-out/%2B2250707070721').set('Authorization', tenant.auth);

    expect(done.text).toContain('Désabonnement enregistré');
    expect(await entriesOf(tenant)).toEqual([{ phone: '+2250707070721', source: 'link', sandbox: expect.anything() }]);
    expect(later.body.data.rejected).toEqual([{ to: '+2250707070721', reason: 'desinscrit' }]);
    expect(refused.body).toEqual({ status: 409, message: 'transition_invalide', errors: ['phone: seul le destinataire peut se réabonner (START)'] });
  });

  it('unsubscribes a link sent with a sandbox key from sandbox traffic only', async () => {
    const tenant = await createTenant(t);
    const { api_key } = await t.admin.createApiKey(tenant.userId, true);
    const { token } = await sentLink({ ...tenant, auth: `Bearer ${api_key}` }, '+2250707070731');

    await page().post(`/u/${token}`).type('form').send('').expect(200);

    expect((await entriesOf(tenant)).map((entry) => Boolean(entry.sandbox))).toEqual([true]);
    expect((await send(tenant, { to: '+2250707070731', message: 'live' }).expect(200)).body.data.count).toBe(1);
  });

  it('answers a plain 404 page for a token changed, made elsewhere or malformed, and records nothing', async () => {
    const tenant = await createTenant(t);
    const { token } = await sentLink(tenant, '+2250707070741');
    const changed = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;

    for (const bad of [changed, 'abc', `${token}x`]) {
      const shown = await page().get(`/u/${bad}`).expect(404);
      expect(shown.text).toContain('Lien inconnu');
      expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
      await page().post(`/u/${bad}`).type('form').send('').expect(404);
    }
    expect(await entriesOf(tenant)).toEqual([]);
  });
});
