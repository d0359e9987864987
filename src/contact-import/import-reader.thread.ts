// The thread ImportReader reads the files of imports on: it answers each request but `close` with a reply of its id.
import { parentPort } from 'node:worker_threads';
import { ImportFileError, type Delimiter } from './csv-file.js';
import { ImportChunks } from './import-chunks.js';

export type ReaderCall = { file: number } & (
  | { type: 'open'; content: Uint8Array; delimiter: Delimiter | null; defaultCountry: string | null; position: number }
  | { type: 'next' }
  | { type: 'close' }
);

export type ReaderRequest = ReaderCall & { id: number };

export type ReaderAnswer =
  | { type: 'opened'; records: number; rows: number }
  /** The chunk's Classified[] as JSON, which crosses between threads faster than the rows themselves. */
  | { type: 'chunk'; rows: string }
  /** The file cannot be imported (ImportFileError). */
  | { type: 'refused'; row: number; message: string }
  | { type: 'failed'; message: string };

export type ReaderReply = ReaderAnswer & { id: number };

const files = new Map<number, ImportChunks>();

parentPort!.on('message', (request: ReaderRequest) => {
  if (request.type === 'close') files.delete(request.file);
  else void answer(request).then((answer) => parentPort!.postMessage({ ...answer, id: request.id } satisfies ReaderReply));
});

async function answer(request: Exclude<ReaderRequest, { type: 'close' }>): Promise<ReaderAnswer> {
  try {
    if (request.type === 'next') return { type: 'chunk', rows: JSON.stringify(files.get(request.file)!.take()) };
    const { content } = request;
    const chunks = await ImportChunks.read(Buffer.from(content.buffer, content.byteOffset, content.byteLength), request);
    files.set(request.file, chunks);
    return { type: 'opened', records: chunks.records, rows: chunks.rows };
  } catch (error) {
    if (error instanceof ImportFileError) return { type: 'refused', row: error.row, message: error.message };
    return { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
