import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { createTenant } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CLIENT = join(process.cwd(), 'test', 'client', 'otp-client.ts');

interface ClientModule {
  OtpClient: new (baseUrl: string, token: string) => unknown;
  runFlow(client: unknown, to: string, groupId: string): Promise<Record<string, Record<string, unknown>> & { sent: { uniq_id: string } }>;
}

/**
 * Validates the document with @apidevtools/swagger-parser, in a process of its own: it loads an ES module
 * through require(), which Node does and Jest's module system does not.
 */
function validationErrors(file: string): string {
  const script = "require('@apidevtools/swagger-parser').validate(process.argv[1]).catch((e) => { console.error(e.message); process.exit(1); })";
  const result = spawnSync(process.execPath, ['-e', script, file], { encoding: 'utf8' });
  return result.status === 0 ? '' : result.stderr || `validator exited with ${result.status}`;
}

/** Type errors of `files`, compiled strictly as the client team would. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/** The OpenAPI document is valid, and a client typed only by what it generates compiles and works. */
describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let doc: Record<string, unknown>;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http().get('/docs-json').expect(200)).body;
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    // a property with a default may be left out of a request
    writeFileSync(join(dir, 'api-types.ts'), astToString(await openapiTS(structuredClone(doc) as never, { defaultNonNullable: false })));
    copyFileSync(CLIENT, join(dir, 'otp-client.ts'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes an OpenAPI validator, which refuses a broken document', () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    expect(validationErrors(file)).toBe('');

    writeFileSync(file, JSON.stringify({ ...doc, info: {} }));
    expect(validationErrors(file)).toContain("must have required property 'title'");
  });

  it('gives types under which the client compiles without error', () => {
    expect(typeErrors([join(dir, 'otp-client.ts')])).toEqual([]);
  });

  it('gives types that refuse a field the interface does not have', () => {
    const wrong = join(dir, 'wrong.ts');
    writeFileSync(
      wrong,
      [
        "import type { components } from './api-types.js';",
        "export const read = (sms: components['schemas']['MessageOutDto']) => sms.recipient_name;",
        "export const send: components['schemas']['SendOtpDto'] = { channel: 'FAX', to: '+2250707070707', message: '##OTP##' };",
      ].join('\n'),
    );
    const errors = typeErrors([wrong]);
    expect(errors).toEqual([
      expect.stringContaining("Property 'recipient_name' does not exist"),
      expect.stringContaining('"FAX"'),
    ]);
  });

  it('runs the whole flow against the service', async () => {
    const tenant = await createTenant(t);
    const { id: groupId } = await t.admin.createGroup(tenant.accountId, 'Clients', 'Early adopters');
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;

    // imported by path: the project's own type-check leaves the client out, as its types exist only here
    const client = (await import(CLIENT)) as ClientModule;
    const flow = await client.runFlow(new client.OtpClient(`http://127.0.0.1:${port}`, tenant.apiKey), '+2250707070707', groupId);

    expect(flow.sent).toEqual({ uniq_id: expect.any(String), code: expect.stringMatching(/^\d{6}$/), expires_at: expect.any(Number) });
    expect(flow.wrong).toEqual({ status: 400, message: 'erreur_de_validation', errors: ['code: code OTP invalide'] });
    expect(flow.verification).toEqual([flow.sent.uniq_id, '+2250707070707', 'sms', expect.any(String), expect.any(String), null]);
    expect(flow.sms).toMatchObject({ ids: [tenant.accountId, flow.sent.uniq_id, null, expect.any(String), tenant.senderId, null, expect.any(String), tenant.userId] });
    expect(flow.group).toMatchObject({ id: groupId, company_id: tenant.accountId, name: 'Clients', description: 'Early adopters' });
    expect(flow.deleted).toEqual({ status: 200, message: 'success' });
    expect(flow.missing).toEqual({ status: 404, message: 'Groupe non trouvé' });
    expect(flow.account).toMatchObject({ id: tenant.accountId, balance: 997.5 });
  });
});
