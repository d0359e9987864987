import { readFileSync } from 'node:fs';
import type { ImageBuild } from './images.js';
import { checkedFetch } from '../support/openapi-answers.js';
import { IMAGES, STOP_SECONDS, containerAddress, containerState, podman, printedApiKey, run, waitForHttp } from '../support/containers.js';

const MB = 1_000_000;
// what debian:bookworm-slim, the Dockerfile's default base, weighs unpacked; the target is the image on it
const BOOKWORM_SLIM = 75 * MB;
const TARGET = 300 * MB;

const builds = JSON.parse(process.env.CONTAINER_BUILDS ?? '[]') as ImageBuild[];
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
const lockfile = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
};

/** Every package in the image's node_modules, nested ones too, by its path as the lockfile names it. */
async function installedPackages(): Promise<string[]> {
  const list = `
    const { readdirSync, existsSync } = require('node:fs');
    const paths = [];
    const walk = (dir) => {
      for (const entry of readdirSync('/app/' + dir)) {
        if (entry.startsWith('.')) continue;
        const names = entry.startsWith('@') ? readdirSync('/app/' + dir + '/' + entry).map((inner) => entry + '/' + inner) : [entry];
        for (const name of names) {
          const path = dir + '/' + name;
          if (!existsSync('/app/' + path + '/package.json')) continue;
          paths.push(path);
          if (existsSync('/app/' + path + '/node_modules')) walk(path + '/node_modules');
        }
      }
    };
    walk('node_modules');
    console.log(JSON.stringify(paths));`;
  return JSON.parse(await podman('run', '--rm', '--network', 'none', IMAGES.app.name, 'node', '-e', list)) as string[];
}

const packageName = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('the service image', () => {
  it('builds, with the images of the compose files', () => {
    expect(builds.map(({ image }) => image).sort()).toEqual(Object.values(IMAGES).map(({ name }) => name).sort());
    for (const build of builds) expect({ image: build.image, code: build.code, output: build.code === 0 ? '' : build.output }).toEqual({ image: build.image, code: 0, output: '' });
  });

  it('holds the production dependencies only: nothing the lockfile installs for development, no TypeScript, no formatter', async () => {
    const installed = await installedPackages();

    const forDevelopment = installed.filter((path) => !lockfile.packages[path] || lockfile.packages[path].dev || lockfile.packages[path].devOptional);
    expect(forDevelopment).toEqual([]);
    expect(installed.map(packageName).filter((name) => ['typescript', 'prettier'].includes(name))).toEqual([]);
    expect(Object.keys(packageJson.dependencies).filter((name) => !installed.includes(`node_modules/${name}`))).toEqual([]);
  });

  it(`weighs at most ${TARGET / MB} MB on debian:bookworm-slim`, async () => {
    const size = Number(await podman('image', 'inspect', IMAGES.app.name, '--format', '{{.Size}}'));
    // the oldest layer is the base the image was built on (one layer, here as for the public image)
    const layers = JSON.parse(await podman('history', '--format', 'json', IMAGES.app.name)) as Array<{ size: number }>;
    const base = layers.at(-1)!.size;
    const onSlim = size - base + BOOKWORM_SLIM;
    process.stdout.write(
      `image ${IMAGES.app.name}: ${(size / MB).toFixed(1)} MB on a ${(base / MB).toFixed(1)} MB base, ` +
        `the service's layers ${((size - base) / MB).toFixed(1)} MB, so ${(onSlim / MB).toFixed(1)} MB on debian:bookworm-slim\n`,
    );

    expect(onSlim).toBeLessThanOrEqual(TARGET);
  });

  it('runs as a user other than root, with /data as its volume, listening on every address', async () => {
    const config = JSON.parse(await podman('image', 'inspect', IMAGES.app.name, '--format', '{{json .Config}}')) as {
      User: string;
      Volumes: Record<string, unknown>;
      Env: string[];
      ExposedPorts: Record<string, unknown>;
      StopSignal: string;
    };

    expect(config.User).toBe('app');
    expect(Object.keys(config.Volumes)).toEqual(['/data']);
    expect(config.Env).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'PORT=3000', 'DATA_DIR=/data']));
    expect(Object.keys(config.ExposedPorts)).toEqual(['3000/tcp']);
    expect(config.StopSignal).toBe('SIGTERM');
  });

  describe('run alone, on its embedded database', () => {
    const name = `messaging-e2e-image-${process.pid}`;
    let base: string;

    beforeAll(async () => {
      await podman('run', '-d', '--name', name, IMAGES.app.name);
      base = `http://${await containerAddress(name)}:3000`;
      await waitForHttp(`${base}/health`, 90_000);
    }, 120_000);

    afterAll(() => run('podman', ['rm', '-f', '-v', name]));

    it('keeps its database and generated secrets in /data, and answers with the demo key it prints', async () => {
      const key = printedApiKey(await podman('logs', name));
      const files = await podman('exec', name, 'ls', '/data');

      expect(files.split('\n')).toEqual(expect.arrayContaining(['messaging.sqlite', 'secrets.json']));
      const account = await checkedFetch(`${base}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
      expect(await account.json()).toMatchObject({ status: 200, data: { name: 'Demo', balance: 1000 } });
    });

    it('exits 0 on SIGTERM: it finished within its own limit (past it, 1), never killed (137)', async () => {
      await podman('stop', '-t', String(STOP_SECONDS), name);

      expect(await containerState(name)).toEqual({ status: 'exited', exitCode: 0 });
    }, 60_000);
  });
});
