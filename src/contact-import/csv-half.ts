import type { Worker } from 'node:worker_threads';
import { startThread } from '../common/threads/start-thread.js';
import { CsvFailure, type Delimiter, type SecondHalfParser } from './csv-records.js';

export interface HalfRequest {
  id: number;
  half: Uint8Array;
  delimiter: Delimiter;
  recordDelimiter: '\r\n' | '\n' | '\r';
}

/** The records of the half, or why csv-parse stopped (null: the thread failed otherwise). */
export type HalfReply = { id: number } & ({ records: string[][] } | { failure: { code: string; records: number } | null });

let thread: Worker | undefined;
const waiting = new Map<number, { resolve: (records: string[][]) => void; reject: (error: unknown) => void }>();
let lastId = 0;

/** Parses second halves on a thread of its own, started with the first, kept as long as the thread that asks. */
export const parseOnHalfThread: SecondHalfParser = (half, delimiter, recordDelimiter) =>
  new Promise((resolve, reject) => {
    const id = ++lastId;
    waiting.set(id, { resolve, reject });
    // a copy of the half's bytes alone crosses, moved rather than copied again
    const bytes = new Uint8Array(half);
    started().postMessage({ id, half: bytes, delimiter, recordDelimiter } satisfies HalfRequest, [bytes.buffer]);
  });

/** Stops the thread; the next parse starts another. (A reader's thread takes it down with itself.) */
export async function stopHalfThread(): Promise<void> {
  const worker = thread;
  thread = undefined;
  await worker?.terminate();
}

function started(): Worker {
  if (thread) return thread;
  const worker = startThread(import.meta.url, 'csv-half.thread');
  worker.unref();
  worker.on('message', (reply: HalfReply) => {
    const request = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ('records' in reply) request?.resolve(reply.records);
    else request?.reject(reply.failure ? new CsvFailure(reply.failure.code, reply.failure.records) : new Error('CSV half thread failed'));
  });
  const lost = (error: unknown) => {
    if (thread === worker) thread = undefined;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', lost);
  worker.on('exit', (code) => lost(new Error(`CSV half thread exited (${code})`)));
  thread = worker;
  return worker;
}
