// The thread ImportReader reads the files of imports on: it answers each request but `close` with a reply of its id.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';
import { ImportFileError, type Delimiter } from './csv-file.js';
import { encodeChunk } from './chunk-wire.js';
import { ImportChunks } from './import-chunks.js';

export type ReaderCall = { file: number } & (
  | { type: 'open'; content: Uint8Array; delimiter: Delimiter | null; defaultCountry: string | null; position: number }
  | { type: 'next' }
  | { type: 'close' }
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

const files = new Map<number, CheckedAhead>();

parentPort!.on('message', (request: ReaderRequest) => {
  if (request.type === 'close') {
    files.get(request.file)?.close();
    files.delete(request.file);
  } else void answer(request).then((answer) => parentPort!.postMessage({ ...answer, id: request.id } satisfies ReaderReply));
});

async function answer(request: Exclude<ReaderRequest, { type: 'close' }>): Promise<ReaderAnswer> {
  try {
    if (request.type === 'next') return await files.get(request.file)!.next();
    const { content } = request;
    const chunks = await ImportChunks.read(Buffer.from(content.buffer, content.byteOffset, content.byteLength), request);
    files.set(request.file, new CheckedAhead(chunks));
    return { type: 'opened', records: chunks.records, rows: chunks.rows };
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown): ReaderAnswer {
  if (error instanceof ImportFileError) return { type: 'refused', row: error.row, message: error.message };
  return { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
