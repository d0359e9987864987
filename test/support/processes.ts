import { execFile, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const DIST = join(process.cwd(), 'dist');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
}

/** Runs `node dist/cli.js …` (as `npm run cli --` does) with the given environment. */
export function runCli(env: Record<string, string>, ...args: string[]): CliResult {
  const result = spawnSync(process.execPath, [join(DIST, 'cli.js'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return cliResult(result.status, result.stdout, result.stderr);
}

/** `runCli` without blocking the test's event loop, so that commands run beside each other or beside what the test waits for. */
export function startCli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(DIST, 'cli.js'), ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 },
      (error, stdout, stderr) => resolve(cliResult(error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr)),
    );
  });
}

function cliResult(status: number | null, stdout: string, stderr: string): CliResult {
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status, stdout, stderr, json };
}

/**
 * The environment of a server process run as in production on a test database, with no rate limit and no receipts from
 * the log provider (a spec about them asks for them); `extra` adds to it.
 */
export function productionEnv(databaseEnv: Record<string, string>, secret: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...databaseEnv,
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://sms.example.com',
    LOG_LEVEL: 'warn',
    JWT_SECRET: secret,
    OTP_SECRET: secret,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_RECEIPT_DELAY_MS: '0',
    ...extra,
  };
}

/**
 * A port free now, below Linux's ephemeral range (32768–60999): a server killed and started again on its port must
 * find it free, and a port of that range may meanwhile be the local end of some other suite's outgoing connection.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await listensOn(port)) return port;
  }
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

export interface ServerProcess {
  /** The process id, which names the instance in the job claims it takes (`claimed_by` is `host:pid:…`). */
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node dist/main.js` and resolves once it prints that it serves, or once it exits. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [join(DIST, 'main.js')], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await Promise.race([
    exited,
    new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (out.includes('Serving on')) {
          clearInterval(check);
          resolve();
        }
      }, 50);
      void exited.then(() => clearInterval(check));
    }),
  ]);
  return {
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Servers on free ports sharing `env` (one database); each has started, or this throws with its error output.
 * With DB_HOSTS in the environment (a Galera cluster's nodes), instance i prefers node i: its list starts there.
 */
export async function startInstances(env: Record<string, string>, count: number): Promise<Array<ServerProcess & { base: string }>> {
  const instances: Array<ServerProcess & { base: string }> = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const server = await startServer({ ...env, ...nodeFirst(env.DB_HOSTS ?? process.env.DB_HOSTS, i), PORT: String(port) });
    instances.push({ ...server, base: `http://127.0.0.1:${port}` });
    if (!server.stdout().includes('Serving on')) throw new Error(`instance ${i} did not start: ${server.stderr()}`);
  }
  return instances;
}

/** DB_HOSTS rotated to start at its `n`-th host (modulo its length); nothing without a list. */
export function nodeFirst(hosts: string | undefined, n: number): Record<string, string> {
  const list = hosts?.split(',') ?? [];
  if (list.length < 2) return {};
  const first = n % list.length;
  return { DB_HOSTS: [...list.slice(first), ...list.slice(0, first)].join(',') };
}
