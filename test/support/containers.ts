import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGES, run } from '../containers/images.js';
import { until } from './until.js';

export { IMAGES, run };

/**
 * The stop timeout the suite gives containers. The service exits within its own 8 s of SIGTERM (0 when it finished,
 * else 1); podman's own work on a machine busy with the other stacks counts against the timeout too, and beyond it
 * podman kills (137): well above both, so that the exit code tells how the service stopped.
 */
export const STOP_SECONDS = 30;

/** `run` that throws with the command's error output when it fails. */
export async function runOrThrow(command: string, args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stderr || result.stdout}`);
  return result.stdout;
}

export const podman = (...args: string[]) => runOrThrow('podman', args);

/** The address of a container on its (only) network, reachable from this machine. */
export async function containerAddress(container: string): Promise<string> {
  const address = (await podman('inspect', container, '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}')).trim().split(' ')[0];
  if (!address) throw new Error(`${container} has no address`);
  return address;
}

/** Exit status and code of a container. */
export async function containerState(container: string): Promise<{ status: string; exitCode: number }> {
  const [status, exitCode] = (await podman('inspect', container, '--format', '{{.State.Status}} {{.State.ExitCode}}')).trim().split(' ');
  return { status: status!, exitCode: Number(exitCode) };
}

/** Resolves once `url` answers 200; the last answer, or why none came, is in the timeout's message. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const answer = () =>
    fetch(url, { signal: AbortSignal.timeout(3000) }).then(
      (response) => response.status,
      (error: Error) => `${url}: ${String(error.cause ?? error)}`,
    );
  await until(answer, (status) => status === 200, timeoutMs, 1000);
}

/** The API key the service prints once, on its first start outside production. */
export const printedApiKey = (logs: string) => /mk_live_[A-Za-z0-9_-]{43}/.exec(logs)?.[0];

/**
 * One of the repository's compose files, run by podman-compose as its README says, from a directory of its own: a
 * copy of the file (the images are built already, so nothing is built from it) and a `.env` made from
 * `.env.example` with `settings` in place of its values.
 */
export class ComposeStack {
  readonly project: string;
  private readonly dir: string;

  constructor(
    private readonly file: string,
    settings: Record<string, string>,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'messaging-compose-'));
    this.project = `messaging-e2e-${this.dir.slice(-6).toLowerCase().replace(/[^a-z0-9]/g, '')}`;
    copyFileSync(file, join(this.dir, file));
    writeFileSync(join(this.dir, '.env'), withSettings(readFileSync('.env.example', 'utf8'), settings));
  }

  compose(...args: string[]): Promise<string> {
    return runOrThrow('podman-compose', this.composeArgs(args), { cwd: this.dir, timeoutMs: 300_000 });
  }

  up(...services: string[]): Promise<string> {
    return this.compose('up', '-d', ...services);
  }

  /** Stops every container, the last service of the file first, each given STOP_SECONDS. */
  stop(): Promise<string> {
    return this.compose('stop', '-t', String(STOP_SECONDS));
  }

  /**
   * Stops the stack, then removes its containers (and with `volumes`, its volumes). podman-compose 1.0 stops with a
   * 1 s timeout on `down` and leaves the project's network behind: stop first, remove the network after.
   */
  async down(options: { volumes: boolean }): Promise<void> {
    await this.stop();
    await this.compose('down', ...(options.volumes ? ['-v'] : []));
    await run('podman', ['network', 'rm', '-f', `${this.project}_default`]);
  }

  /** Removes whatever is left, after a failure too, and the directory: at once, the stack having served its tests. */
  async destroy(): Promise<void> {
    await run('podman-compose', this.composeArgs(['down', '-v']), { cwd: this.dir, timeoutMs: 300_000 });
    await run('podman', ['network', 'rm', '-f', `${this.project}_default`]);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private composeArgs(args: string[]): string[] {
    return ['-p', this.project, '-f', this.file, ...args];
  }

  container(service: string): string {
    return `${this.project}_${service}_1`;
  }

  logs(service: string): Promise<string> {
    return run('podman', ['logs', this.container(service)]).then(({ stdout, stderr }) => stdout + stderr);
  }

  /** The project's containers, running or not, and its volumes and network. */
  async leftovers(): Promise<string[]> {
    const label = `label=io.podman.compose.project=${this.project}`;
    const containers = await podman('ps', '-a', '--filter', label, '--format', '{{.Names}}');
    const volumes = await podman('volume', 'ls', '--filter', label, '--format', '{{.Name}}');
    const network = (await run('podman', ['network', 'exists', `${this.project}_default`])).code === 0 ? [`${this.project}_default`] : [];
    return [...containers.split('\n'), ...volumes.split('\n'), ...network].filter(Boolean);
  }
}

/** `.env.example` with the given settings: each replaces the line of its variable, or is added at the end. */
function withSettings(example: string, settings: Record<string, string>): string {
  const left = new Map(Object.entries(settings));
  const lines = example.split('\n').map((line) => {
    const name = /^([A-Z0-9_]+)=/.exec(line)?.[1];
    if (!name || !left.has(name)) return line;
    const value = left.get(name)!;
    left.delete(name);
    return `${name}=${value}`;
  });
  return [...lines, ...[...left].map(([name, value]) => `${name}=${value}`), ''].join('\n');
}
