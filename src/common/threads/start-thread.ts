import { Worker } from 'node:worker_threads';

/**
 * Starts the module `name` that sits beside `caller` (the caller's
 * `import.meta.url`) on a worker thread. Built, the module is JavaScript and
 * runs as it is; run from the TypeScript sources, as the test suites run them,
 * the thread compiles it and the sources it imports as it loads them
 * (typescript-thread.mjs).
 */
export function startThread(caller: string, name: string): Worker {
  if (caller.endsWith('.js')) return new Worker(new URL(`./${name}.js`, caller), { name });
  return new Worker(new URL('./typescript-thread.mjs', import.meta.url), { name, workerData: new URL(`./${name}.ts`, caller).href });
}
