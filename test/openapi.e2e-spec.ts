import { writeFileSync } from 'node:fs';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('dump', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(); });
  afterAll(() => t.close());
  it('dumps', async () => {
    const doc = await t.http().get('/docs-json');
    writeFileSync('/tmp/openapi.json', JSON.stringify(doc.body, null, 2));
    const html = await t.http().get('/docs');
    writeFileSync('/tmp/docs.txt', JSON.stringify({ status: html.status, headers: html.headers, text: html.text }, null, 2));
  });
});
