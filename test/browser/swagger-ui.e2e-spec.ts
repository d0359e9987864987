import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(process.cwd(), 'test-results', 'swagger-ui.png');

/** Swagger UI in headless Chromium: authorise with an API key and try GET /v1/account for real. */
describe('Swagger UI in a browser', () => {
  let t: TestApp;
  let tenant: Tenant;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    tenant = await createTenant(t, { name: 'Browser Test', balance: '321.00' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs "Try it out" on GET /v1/account with an API key and shows the 200 answer', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));

    await page.goto(`${base}/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const apiKeyForm = page.locator('.auth-container').filter({ hasText: 'api-key' });
    await apiKeyForm.locator('input').fill(`Bearer ${tenant.apiKey}`);
    await apiKeyForm.locator('button.authorize').click();
    await apiKeyForm.locator('button', { hasText: 'Logout' }).waitFor();
    await page.locator('.auth-btn-wrapper button.btn-done').first().click();

    const operation = page.locator('#operations-Account-AccountController_get');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();

    const answer = operation.locator('.live-responses-table tr.response');
    await answer.waitFor();
    expect((await answer.locator('.response-col_status').innerText()).trim()).toBe('200');
    const body = JSON.parse(await answer.locator('.response-col_description pre.microlight').first().innerText());
    expect(body).toMatchObject({ status: 200, message: 'OK', data: { id: tenant.accountId, name: 'Browser Test', balance: 321 } });

    mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
  }, 60_000);
});
