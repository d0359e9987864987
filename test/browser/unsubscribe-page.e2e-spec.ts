import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createTenant } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(process.cwd(), 'test-results', 'unsubscribe-page.png');

/** The unsubscribe link of a message, opened in headless Chromium with scripts off: confirm, and the number is opted out. */
describe('Unsubscribe page in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('opens the link of a sent message, submits the form and shows the French confirmation', async () => {
    const tenant = await createTenant(t, { name: 'Boutique Awa' });
    const sent = await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: '+2250707070707', message: 'Soldes !', append_opt_out: true }).expect(200);
    const text = await t.database.run(async (sql) => (await sql.get<{ message: string }>('SELECT message FROM message_out WHERE uniq_id = ?', [sent.body.data.messages[0].uniq_id]))!.message);
    const path = new URL(/Désabo: (\S+)$/.exec(text)![1]!).pathname;
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-FR' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);

    await page.goto(`${base}${path}`);
    expect(await page.locator('h1').innerText()).toBe('Se désabonner');
    expect(await page.locator('body').innerText()).toContain('Boutique Awa');
    await page.getByRole('button', { name: 'Me désabonner' }).click();
    await page.locator('h1', { hasText: 'Désabonnement enregistré' }).waitFor();

    mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const entries = await t.database.run((sql) => sql.all<{ phone: string; source: string }>('SELECT phone, source FROM opt_out WHERE account_id = ?', [tenant.accountId]));
    expect(entries).toEqual([{ phone: '+2250707070707', source: 'link' }]);
    await context.close();
  }, 60_000);
});
