import type { Worker } from 'node:worker_threads';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { startThread } from '../common/threads/start-thread.js';
import { decodeChunk } from './chunk-wire.js';
import { ImportFileError } from './csv-file.js';
import type { Classified } from './import-chunks.js';
import type { ReadOptions, ReaderAnswer, ReaderCall, ReaderReply, ReaderRequest } from './import-reader.thread.js';

/** The file of an import, read on the reader's thread. */
export interface ImportFile {
  /** Data records in the file, blank ones included. */
  records: number;
  /** Data rows in the file, blank ones aside. */
  rows: number;
  /** The next 500 records from the job's position, checked (see ImportChunks); empty past the end. */
  next(): Promise<Classified[]>;
  close(): void;
}

/** With no file open this long, the thread stops; the next import starts it again. */
const IDLE_MS = 60_000;

/**
 * Reads and checks the files of imports on a worker thread: parsing a file and
 * checking its rows cost as much as writing them, and SQLite writes on the
 * event loop itself, so on the thread the checks of a chunk overlap the
 * writes of the one before it, and requests go on being served meanwhile.
 */
@Injectable()
export class ImportReader implements OnApplicationShutdown {
  private thread: ReaderThread | undefined;
  private lastId = 0;
  private openFiles = 0;
  private idle: NodeJS.Timeout | undefined;

  /**
   * Starts reading and checking the file of a job just queued, so that its
   * first chunk is ready when the job is claimed here; nothing is kept past 30 s.
   */
  prepare(job: string, content: Buffer, options: ReadOptions): void {
    this.started().worker.postMessage({ type: 'prepare', file: 0, id: ++this.lastId, job, content, ...options } satisfies ReaderRequest);
    if (this.openFiles === 0) this.idleSoon();
  }

  /** `job`'s file, `content`, read from `position`; ImportFileError when the file cannot be imported at all. */
  async open(job: string, content: Buffer, options: ReadOptions & { position: number }): Promise<ImportFile> {
    const file = ++this.lastId;
    this.openFiles++;
    clearTimeout(this.idle);
    let opened: ReaderAnswer;
    try {
      opened = await this.request({ type: 'open', file, job, content, ...options });
      if (opened.type !== 'opened') throw new Error(`unexpected reply ${opened.type}`);
    } catch (error) {
      this.closed(file);
      throw error;
    }
    let open = true;
    return {
      records: opened.records,
      rows: opened.rows,
      next: async () => {
        const chunk = await this.request({ type: 'next', file });
        if (chunk.type !== 'chunk') throw new Error(`unexpected reply ${chunk.type}`);
        return decodeChunk(chunk.rows);
      },
      close: () => {
        if (open) this.closed(file);
        open = false;
      },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.idle);
    await this.thread?.worker.terminate();
  }

  private request(call: ReaderCall): Promise<ReaderAnswer> {
    const id = ++this.lastId;
    const thread = this.started();
    return new Promise((resolve, reject) => {
      thread.waiting.set(id, {
        resolve: (answer) => {
          if (answer.type === 'refused') reject(new ImportFileError(answer.row, answer.message));
          else if (answer.type === 'failed') reject(new Error(`import reader: ${answer.message}`));
          else resolve(answer);
        },
        reject,
      });
      thread.worker.postMessage({ ...call, id } satisfies ReaderRequest);
    });
  }

  private closed(file: number): void {
    this.thread?.worker.postMessage({ type: 'close', file, id: ++this.lastId } satisfies ReaderRequest);
    if (--this.openFiles === 0) this.idleSoon();
  }

  private idleSoon(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.stop(), IDLE_MS).unref();
  }

  private started(): ReaderThread {
    if (this.thread) return this.thread;
    const thread: ReaderThread = { worker: startThread(import.meta.url, 'import-reader.thread'), waiting: new Map() };
    thread.worker.unref();
    thread.worker.on('message', (reply: ReaderReply) => {
      thread.waiting.get(reply.id)?.resolve(reply);
      thread.waiting.delete(reply.id);
    });
    const lost = (error: unknown) => {
      if (this.thread === thread) this.thread = undefined;
      for (const { reject } of thread.waiting.values()) reject(error);
      thread.waiting.clear();
    };
    thread.worker.on('error', lost);
    thread.worker.on('exit', (code) => lost(new Error(`import reader thread exited (${code})`)));
    this.thread = thread;
    return thread;
  }

  private async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.worker.terminate();
  }
}

interface ReaderThread {
  worker: Worker;
  /** The requests sent to it, by id. */
  waiting: Map<number, { resolve: (answer: ReaderAnswer) => void; reject: (error: unknown) => void }>;
}
