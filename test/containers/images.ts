import { execFile } from 'node:child_process';

// Jest's global setup of the containers project: loaded by Node as it is, it imports nothing of the suite's own.

/** The images the suite builds from this tree, with their build contexts; the compose files and manifests name them. */
export const IMAGES = {
  app: { name: 'localhost/messaging-otp:latest', context: '.' },
  mariadb: { name: 'localhost/messaging-mariadb:latest', context: 'deploy/mariadb' },
  haproxy: { name: 'localhost/messaging-haproxy:latest', context: 'deploy/haproxy' },
} as const;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ImageBuild {
  image: string;
  code: number;
  seconds: number;
  /** The end of the build's output, for a build that failed. */
  output: string;
}

/** Runs a command to its end without a shell; never rejects (the exit code says how it went). */
export function run(command: string, args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Builds the images once for every spec, side by side, with CONTAINER_BUILD (`podman build` by default; CI gives
 * its own command), and hands the outcome to the specs in CONTAINER_BUILDS. A failed build fails the image spec,
 * which shows its output, rather than the whole run.
 */
export default async function buildImages(): Promise<void> {
  const [command, ...options] = (process.env.CONTAINER_BUILD ?? 'podman build').split(' ').filter(Boolean);
  const builds = await Promise.all(
    Object.values(IMAGES).map(async ({ name, context }): Promise<ImageBuild> => {
      const started = Date.now();
      const result = await run(command!, [...options, '-t', name, context], { timeoutMs: 420_000 });
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      process.stdout.write(`built ${name} in ${seconds} s${result.code === 0 ? '' : ` (failed, exit ${result.code})`}\n`);
      return { image: name, code: result.code, seconds, output: (result.stdout + result.stderr).slice(-4000) };
    }),
  );
  process.env.CONTAINER_BUILDS = JSON.stringify(builds);
}
