// The thread ImportReader reads the files of imports on: it answers each request but `close` with a reply of its id.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';
import { ImportFileError, type Delimiter } from './csv-file.js';
import { encodeChunk } from './chunk-wire.js';
import { ImportChunks } from './import-chunks.js';

/** How a file is read: its delimiter (null: detected) and the country of its national numbers. */
export interface ReadOptions {
  delimiter: Delimiter | null;
  defaultCountry: string | null;
}

export type ReaderCall = { file: number } & (
  /** `job`'s file from `position`: the one prepared for it when there is one and `position` is 0. */
  | ({ type: 'open'; job: string; content: Uint8Array; position: number } & ReadOptions)
  | { type: 'next' }
  | { type: 'close' }
  /** Read and check the file of a job just queued, ahead of its open; no reply. */
  | ({ type: 'prepare'; job: string; content: Uint8Array } & ReadOptions)
);

export type ReaderRequest = ReaderCall & { id: number };

export type ReaderAnswer =
  | { type: 'opened'; records: number; rows: number }
  /** The chunk's Classified[] (encodeChunk). */
  | { type: 'chunk'; rows: string }
  /** The file cannot be imported (ImportFileError). */
  | { type: 'refused'; row: number; message: string }
  | { type: 'failed'; message: string };

export type ReaderReply = ReaderAnswer & { id: number };

const PAST_THE_END: ReaderAnswer = { type: 'chunk', rows: '[]' };

/**
 * An open file, its chunks checked ahead of the requests for them, one per
 * turn of the event loop: the thread is never idle while the import writes.
 */
class CheckedAhead {
  private readonly ready: ReaderAnswer[] = [];
  private readonly waiting: Array<(answer: ReaderAnswer) => void> = [];
  /** What every request gets once the chunks are all handed out: none, or the failure that stopped them. */
  private end: ReaderAnswer | undefined;

  constructor(private readonly chunks: ImportChunks) {
    void this.checkAll();
  }

  next(): Promise<ReaderAnswer> {
    const answer = this.ready.shift() ?? this.end;
    return answer ? Promise.resolve(answer) : new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.end = PAST_THE_END;
  }

  private async checkAll(): Promise<void> {
    while (!this.end) {
      await nextTurn();
      try {
        this.hand({ type: 'chunk', rows: encodeChunk(this.chunks.take()) });
        if (this.chunks.finished) this.end = PAST_THE_END;
      } catch (error) {
        this.end = failure(error);
      }
    }
    for (const waiter of this.waiting.splice(0)) waiter(this.end);
  }

  private hand(answer: ReaderAnswer): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(answer);
    else this.ready.push(answer);
  }
}

interface CheckedFile {
  chunks: ImportChunks;
  checked: CheckedAhead;
}

/** Files prepared for their jobs are kept this long for the open that should follow (another instance may take the job). */
const PREPARED_MS = 30_000;
/** At most this many prepared files are kept: each holds its whole file, read. */
const MAX_PREPARED = 2;

const files = new Map<number, CheckedAhead>();
/** By job; the timer drops the file when its open does not come (the timer holds the whole file until cleared). */
const prepared = new Map<string, { file: Promise<CheckedFile | null>; expiry: NodeJS.Timeout }>();

parentPort!.on('message', (request: ReaderRequest) => {
  if (request.type === 'close') {
    files.get(request.file)?.close();
    files.delete(request.file);
  } else if (request.type === 'prepare') prepare(request);
  else void answer(request).then((answer) => parentPort!.postMessage({ ...answer, id: request.id } satisfies ReaderReply));
});

async function answer(request: Exclude<ReaderRequest, { type: 'close' | 'prepare' }>): Promise<ReaderAnswer> {
  try {
    if (request.type === 'next') return await files.get(request.file)!.next();
    const ready = await takePrepared(request.job, request.position);
    const { chunks, checked } = ready ?? (await checkedFile(request.content, request, request.position));
    files.set(request.file, checked);
    return { type: 'opened', records: chunks.records, rows: chunks.rows };
  } catch (error) {
    return failure(error);
  }
}

async function checkedFile(content: Uint8Array, options: ReadOptions, position: number): Promise<CheckedFile> {
  const chunks = await ImportChunks.read(Buffer.from(content.buffer, content.byteOffset, content.byteLength), { ...options, position });
  return { chunks, checked: new CheckedAhead(chunks) };
}

/** A file that cannot be read is not kept: its open reads it again and reports why. */
function prepare(request: Extract<ReaderRequest, { type: 'prepare' }>): void {
  const { job } = request;
  if (prepared.size >= MAX_PREPARED || prepared.has(job)) return;
  const file = checkedFile(request.content, request, 0).catch(() => null);
  const expiry = setTimeout(() => void takePrepared(job, null), PREPARED_MS).unref();
  prepared.set(job, { file, expiry });
}

/** The file prepared for `job` when it is read from the start (`position` 0); one not taken is dropped. */
async function takePrepared(job: string, position: number | null): Promise<CheckedFile | null> {
  const entry = prepared.get(job);
  if (!entry) return null;
  prepared.delete(job);
  clearTimeout(entry.expiry);
  if (position === 0) return (await entry.file) ?? null;
  void entry.file.then((untaken) => untaken?.checked.close());
  return null;
}

function failure(error: unknown): ReaderAnswer {
  if (error instanceof ImportFileError) return { type: 'refused', row: error.row, message: error.message };
  return { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
