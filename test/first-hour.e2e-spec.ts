import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant } from './support/fixtures.js';
import { callInstance } from './support/instance-calls.js';
import { freePort, productionEnv, runCli, startServer, type ServerProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { startTestApp } from './support/test-app.js';
import { until } from './support/until.js';

const SECRET = 'first-hour-e2e-secret-0123456789abcdefgh';
const BUILD_IF_STALE = join(process.cwd(), 'scripts', 'build-if-stale.mjs');

/** What a newcomer meets first: the public address of links (SPEC-3 §1.11), the start-up log, and `npm start` (§1.13). */
describe('the first hour', () => {
  describe('PUBLIC_URL', () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await server?.stop();
      await database?.drop();
    });

    it("starts a campaign's unsubscribe link with PUBLIC_URL, where it opens the /u/{token} page; the start-up log shows real paths", async () => {
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}`;
      const env = productionEnv(database.env, SECRET, { PORT: String(port), PUBLIC_URL: `${publicUrl}/`, LOG_LEVEL: 'info' });
      const account = runCli(env, 'account:create', '--name', 'Boutique Awa', '--balance', '100').json as { api_key: string };
      server = await startServer(env);
      const call = async (method: string, path: string, body?: object) => (await callInstance([publicUrl], 0, { method, path, key: account.api_key, body })).body;

      const group = (await call('POST', '/v1/group', { name: 'Clients' })).data.id as string;
      await call('POST', `/v1/group/${group}/contacts`, { phones: ['+2250707073001'] });
      const campaign = (await call('POST', '/v1/campaign', { name: 'Soldes', message: 'Soldes ce week-end', group_ids: [group] })).data.id as string;
      await call('POST', `/v1/campaign/${campaign}/launch`, {});
      const messages = await until(async () => (await call('GET', `/v1/sms/out?campaign_id=${campaign}`)).data.items as Array<{ message: string }>, (items) => items.length === 1);
      const link = /Désabo: (\S+)$/.exec(messages[0]!.message)![1]!;
      const page = await fetch(link);

      expect(link).toMatch(new RegExp(`^${publicUrl}/u/[A-Za-z0-9_-]{46}$`));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('Boutique Awa');
      expect(html).toContain('<form method="post">');

      await server.stop();
      const log = server.stdout();
      expect(log).toContain(JSON.stringify({ publicUrl }).slice(1, -1));
      for (const route of ['/v1/metrics, GET', '/metrics, GET', '/health/live, GET', '/v1/admin/accounts, GET', '/u/:token, GET']) expect(log).toContain(`Mapped {${route}}`);
      expect(log).not.toContain('/v1/v1/');
      expect(log).not.toContain('"context":"RoutesResolver"');
    }, 120_000);

    it('is http://localhost:PORT by default', async () => {
      const t = await startTestApp({ PORT: '4567' });
      try {
        const tenant = await createTenant(t);
        const sent = (await t.http().post('/v1/sms/send').set('Authorization', tenant.auth).send({ to: '+2250707073002', message: 'Soldes', append_opt_out: true }).expect(200)).body.data;
        const text = await t.database.run(async (sql) => (await sql.get<{ message: string }>('SELECT message FROM message_out WHERE uniq_id = ?', [sent.messages[0].uniq_id]))!.message);
        expect(text).toMatch(/\nDésabo: http:\/\/localhost:4567\/u\/[A-Za-z0-9_-]{46}$/);
      } finally {
        await t.close();
      }
    });

    it('is required in production', async () => {
      const env = productionEnv(database.env, SECRET, { PORT: String(await freePort()), PUBLIC_URL: '' });
      server = await startServer(env);

      expect(await server.exited).toBe(1);
      expect(server.stderr()).toContain('Invalid configuration:\n  PUBLIC_URL is required in production\n');
      expect(server.stderr()).not.toMatch(/\n\s+at /);
    }, 60_000);
  });

  describe('npm start', () => {
    let project: string;
    const builds = () => readFileSync(join(project, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;
    const start = () => spawnSync(process.execPath, [BUILD_IF_STALE], { cwd: project, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'silent' } });
    const age = (path: string, secondsAgo: number) => {
      const at = new Date(Date.now() - secondsAgo * 1000);
      utimesSync(join(project, path), at, at);
    };

    beforeAll(() => {
      // a project whose build records itself and writes tsc's build information, as `nest build` does
      project = mkdtempSync(join(tmpdir(), 'start-spec-'));
      mkdirSync(join(project, 'src', 'feature'), { recursive: true });
      writeFileSync(join(project, 'src', 'feature', 'a.ts'), 'export const a = 1;\n');
      writeFileSync(join(project, 'src', 'feature', 'b.ts'), 'export const b = 2;\n');
      writeFileSync(join(project, 'builds.log'), '');
      const build = "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/.tsbuildinfo','{}');require('fs').appendFileSync('builds.log','built\\n')";
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'start-spec', private: true, scripts: { build: `node -e "${build}"` } }));
      for (const path of ['src/feature/a.ts', 'src/feature/b.ts', 'src/feature', 'src', 'package.json']) age(path, 60);
    });
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    it('is the check, then the server', () => {
      const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
      expect(scripts.start).toMatch(/^node scripts\/build-if-stale\.mjs && node .* dist\/main\.js$/);
    });

    it('builds a fresh clone, then starts at once while nothing changed', () => {
      expect(start().status).toBe(0);
      expect(builds()).toBe(1);

      const again = start();
      expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: '' });
      expect(builds()).toBe(1);
    });

    it('builds again when a source changed or was removed since the build', () => {
      writeFileSync(join(project, 'src', 'feature', 'a.ts'), 'export const a = 3;\n');
      expect(start().stderr).toContain(`${join('src', 'feature', 'a.ts')} changed since the last build`);
      expect(builds()).toBe(2);

      age('src/feature/a.ts', 60);
      age('dist/.tsbuildinfo', 30);
      unlinkSync(join(project, 'src', 'feature', 'b.ts'));
      expect(start().stderr).toContain(`${join('src', 'feature')} changed since the last build`);
      expect(builds()).toBe(3);
      expect(start().stderr).toBe('');
      expect(builds()).toBe(3);
    });

    it('stops when the build fails', () => {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'start-spec', private: true, scripts: { build: 'node -e "process.exit(3)"' } }));
      expect(start().status).toBe(3);
    });
  });
});
