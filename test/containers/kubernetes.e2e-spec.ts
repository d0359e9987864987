import { get } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkedFetch } from '../support/openapi-answers.js';
import { IMAGES, STOP_SECONDS, containerAddress, containerState, podman, run, waitForHttp } from '../support/containers.js';
import { ServiceProxy } from '../support/service-proxy.js';
import { until } from '../support/until.js';

const MANIFESTS = 'deploy/kubernetes';
// the service's own shutdown limit (src/server.ts)
const SHUTDOWN_SECONDS = 8;

type Manifest = Record<string, any>;
const manifests: Manifest[] = readdirSync(MANIFESTS)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(join(MANIFESTS, file), 'utf8')).map((document) => document.toJS() as Manifest));
const manifest = (kind: string) => structuredClone(manifests.find((candidate) => candidate.kind === kind)!);

const deployment = manifest('Deployment');
const podSpec = deployment.spec.template.spec;
const container = podSpec.containers[0];
const labels: Record<string, string> = deployment.spec.template.metadata.labels;
const matches = (selector: Record<string, string>) => Object.entries(selector).every(([name, value]) => labels[name] === value);
const containerPort = (port: number | string) => (typeof port === 'number' ? port : container.ports.find((candidate: Manifest) => candidate.name === port).containerPort);

/** GET through a new connection each time (the proxy spreads connections, not requests). */
const getStatus = (port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });

describe('the Kubernetes manifests', () => {
  it('run three instances, probed on /health, given more time to stop than preStop and the shutdown take', () => {
    const preStop = Number(container.lifecycle.preStop.exec.command.at(-1));

    expect(deployment.spec.replicas).toBe(3);
    expect([container.readinessProbe.httpGet.path, container.livenessProbe.httpGet.path]).toEqual(['/health/ready', '/health/live']);
    expect(container.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
    expect(podSpec.terminationGracePeriodSeconds).toBeGreaterThan(preStop + SHUTDOWN_SECONDS);
  });

  it('select the Deployment’s pods in the Service and the PodDisruptionBudget', () => {
    const service = manifest('Service');

    expect(matches(service.spec.selector)).toBe(true);
    expect(matches(manifest('PodDisruptionBudget').spec.selector.matchLabels)).toBe(true);
    expect(containerPort(service.spec.ports[0].targetPort)).toBe(3000);
    expect(manifest('Job').spec.template.spec.containers[0].envFrom).toEqual(container.envFrom);
  });

  describe('under podman play kube, with a MariaDB pod', () => {
    // every name the suite gives holds "e2e": CI removes what a run stopped at its time limit left
    const suffix = `e2e${Math.random().toString(36).slice(2, 8)}`;
    const network = `messaging-kube-${suffix}`;
    const secret = `messaging-otp-${suffix}`;
    const database = `mariadb-${suffix}`;
    const dir = mkdtempSync(join(tmpdir(), 'messaging-kube-'));
    const played: string[] = [];
    const proxy = () => new ServiceProxy(pods.map((pod) => ({ host: pod.address, port: containerPort(manifest('Service').spec.ports[0].targetPort) })));
    let pods: Array<{ name: string; container: string; address: string }> = [];

    /** `podman play kube` of these documents, on the suite's network. */
    const play = async (name: string, ...documents: Manifest[]) => {
      const file = join(dir, `${name}.json`);
      // JSON is YAML: one document per line
      writeFileSync(file, documents.map((document) => JSON.stringify(document)).join('\n---\n'));
      played.push(file);
      await podman('play', 'kube', '--network', network, file);
    };
    /** The manifests' environment, on the MariaDB pod, with the suite's secret. */
    const configMap = () => {
      const map = manifest('ConfigMap');
      map.data.DB_HOSTS = `${database}:3306`;
      return map;
    };
    const withSecret = (spec: Manifest) => {
      for (const source of spec.containers[0].envFrom) if (source.secretRef) source.secretRef.name = secret;
      return spec;
    };

    beforeAll(async () => {
      await podman('network', 'create', network);
      const values = { ...manifest('Secret').stringData, JWT_SECRET: 'k'.repeat(48), OTP_SECRET: 'o'.repeat(48), DB_PASSWORD: 'kube-e2e-password' };
      // podman 4.3 reads a secretRef from its own store, each value in base64
      const encoded = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Buffer.from(String(value)).toString('base64')]));
      writeFileSync(join(dir, 'secret.json'), JSON.stringify(encoded));
      await podman('secret', 'create', secret, join(dir, 'secret.json'));

      await play('mariadb', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: database },
        spec: {
          containers: [
            {
              name: 'mariadb',
              image: IMAGES.mariadb.name,
              env: [
                { name: 'MARIADB_DATABASE', value: configMap().data.DB_NAME },
                { name: 'MARIADB_USER', value: configMap().data.DB_USER },
                { name: 'MARIADB_PASSWORD', value: values.DB_PASSWORD },
              ],
            },
          ],
        },
      });
      await until(() => run('podman', ['exec', `${database}-mariadb`, 'mariadb-healthcheck']), ({ code }) => code === 0, 120_000, 1000);

      // podman has no Job: its pod, once
      const job = manifest('Job');
      await play('migrate', configMap(), { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${job.metadata.name}-${suffix}` }, spec: withSecret(job.spec.template.spec) });
      const migrate = `${job.metadata.name}-${suffix}-${job.spec.template.spec.containers[0].name}`;
      await until(() => containerState(migrate), (state) => state.status === 'exited' && state.exitCode === 0, 180_000, 1000);

      const running = manifest('Deployment');
      running.metadata.name = `${running.metadata.name}-${suffix}`;
      withSecret(running.spec.template.spec);
      // podman 4.3 publishes every containerPort on this machine's own port: three pods cannot all have 3000
      delete running.spec.template.spec.containers[0].ports;
      await play('deployment', configMap(), running, manifest('Service'), manifest('PodDisruptionBudget'));
      pods = await Promise.all(
        Array.from({ length: running.spec.replicas as number }, async (_, i) => {
          const name = `${running.metadata.name}-pod-${i}`;
          const podContainer = `${name}-${container.name}`;
          return { name, container: podContainer, address: await containerAddress(podContainer) };
        }),
      );
    }, 420_000);

    afterAll(async () => {
      for (const file of played.reverse()) await run('podman', ['play', 'kube', '--down', file]);
      await run('podman', ['secret', 'rm', secret]);
      await run('podman', ['network', 'rm', '-f', network]);
      rmSync(dir, { recursive: true, force: true });
    }, 120_000);

    it('start the Deployment’s three pods, each ready by its readiness probe', async () => {
      const probe = container.readinessProbe.httpGet;

      for (const pod of pods) await waitForHttp(`http://${pod.address}:${containerPort(probe.port)}${probe.path}`, 180_000);
      expect(pods).toHaveLength(3);
    }, 600_000);

    it('answer through the Service, on each pod in turn', async () => {
      const service = proxy();
      const port = await service.listen();
      try {
        const statuses = await Promise.all(Array.from({ length: 9 }, () => getStatus(port, '/health')));
        const spread = [...service.connections.values()];
        const account = JSON.parse(await podman('exec', pods[0]!.container, 'node', 'dist/cli.js', 'account:create', '--name', 'Kube', '--balance', '10')) as {
          api_key: string;
        };
        const answer = await checkedFetch(`http://127.0.0.1:${port}/v1/account`, { headers: { Authorization: `Bearer ${account.api_key}` } });

        expect(statuses).toEqual(statuses.map(() => 200));
        expect(spread).toEqual([3, 3, 3]);
        expect(await answer.json()).toMatchObject({ status: 200, data: { name: 'Kube', balance: 10 } });
      } finally {
        await service.close();
      }
    }, 120_000);

    // as the kubelet does, the container first: the pod's network stays until it has stopped. Exit code 0: the
    // service finished within its own limit (past it, 1), which the grace period is above
    it('stop a pod’s container on SIGTERM, exiting 0', async () => {
      await podman('stop', '-t', String(STOP_SECONDS), pods[2]!.container);

      expect(await containerState(pods[2]!.container)).toEqual({ status: 'exited', exitCode: 0 });
    }, 60_000);
  });
});
