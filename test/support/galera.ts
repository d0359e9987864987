import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const GALERA_LOCAL = resolve(process.cwd(), '../shared/scripts/galera-local.sh');
/** Specs run side by side: the first to find a node stopped starts it, the others wait for it and find the cluster whole. */
const START_LOCK = join(tmpdir(), 'galera-whole-cluster.lock');

/** galera-local.sh on the cluster of the environment (GALERA_BASE and the rest, as the CI exports them). */
export const galera = (...args: string[]) => promisify(execFile)(GALERA_LOCAL, args, { timeout: 120_000 });

/**
 * Starts whatever node of the cluster is not running, after printing what the nodes' logs say: a node lost during one
 * spec fails that spec, not every spec after it.
 */
export async function wholeCluster(): Promise<void> {
  const broken = await galera('status').then(
    () => null,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  if (broken === null) return;
  const logs = await Promise.all([1, 2, 3].map((node) => galera('logs', String(node)).then(({ stdout }) => stdout, String)));
  console.error(`the Galera cluster is not whole:\n${broken}\n${logs.join('\n')}`);
  await promisify(execFile)('flock', [START_LOCK, GALERA_LOCAL, 'start'], { timeout: 120_000 });
}
