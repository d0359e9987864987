// Starting and watching the servers a benchmark compares.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const SHARED = resolve(ROOT, '..', 'shared');
const MARIADB_SCRIPT = join(SHARED, 'scripts', 'mariadb-local.sh');
const BASELINE_DIR = join(SHARED, 'bench', 'baseline');

/** The service's heap as `npm run start:prod` sizes it. */
export const SERVICE_NODE_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=16'];

const running = new Set();
// a benchmark that fails half-way leaves no server behind to answer the next one
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')));
// nor one that is interrupted
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));

const answers = (url) => fetch(url).then((response) => response.ok, () => false);

/** Starts a node server and resolves once it answers on `healthPath`; refuses a port something else answers on. */
export async function startNode(name, args, { env, cwd = ROOT, port, healthPath }) {
  if (await answers(`http://127.0.0.1:${port}${healthPath}`)) throw new Error(`${name}: port ${port} is already taken by another server`);
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.on('close', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('close', resolve));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}${healthPath}`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    name,
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    /** How it ended (its exit code or signal); null while it runs. */
    get ended() {
      return child.exitCode ?? child.signalCode;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `error` with the tail of `service`'s output, which tells why it failed or ended. */
export function withOutput(error, service) {
  return new Error(`${error.message}; the ${service.name}'s output:\n${service.output().slice(-20_000)}`, { cause: error });
}

/** CPU time a process has used, in ms (utime + stime of /proc/<pid>/stat, in 10-ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const QUIET_WINDOW_MS = 250;
const QUIET_SHARE = 0.05;

/**
 * Resolves once the process has used under 5 % of a core for two windows of 250 ms in a row: the background work a
 * run leaves (receipts, events, checkpoints) is done before the next run is measured. Gives up after `timeoutMs`.
 */
export async function settled(pid, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let quietWindows = 0;
  let before = cpuMs(pid);
  while (quietWindows < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const now = cpuMs(pid);
    quietWindows = now - before < QUIET_WINDOW_MS * QUIET_SHARE ? quietWindows + 1 : 0;
    before = now;
  }
}

/** Samples a process's resident memory (VmRSS) every 500 ms; `stop()` returns the peak in MB. */
export function rssSampler(pid) {
  let peak = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {
      // the process is gone
    }
  };
  sample();
  const timer = setInterval(sample, 500);
  return { stop: () => (clearInterval(timer), sample(), Math.round(peak / 1024)) };
}

/** A command of the service's CLI, tried again while SQLite stays locked past its wait (a saturated machine). */
export function runCli(env, ...args) {
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (result.status === 0) return JSON.parse(result.stdout);
    if (attempt >= 5 || !result.stderr.includes('database is locked')) throw new Error(`cli ${args[0]} failed: ${result.stderr}`);
  }
}

/** The baseline server of ../shared/bench/baseline, run from a copy beside this project's node_modules. */
export function baselineDirectory() {
  const dir = mkdtempSync(join(tmpdir(), 'otp-baseline-'));
  copyFileSync(join(BASELINE_DIR, 'server.mjs'), join(dir, 'server.mjs'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

export function mariadb(command, env = {}) {
  const result = spawnSync('bash', [MARIADB_SCRIPT, command], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mariadb-local.sh ${command} failed: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

export function build() {
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('build failed');
}
