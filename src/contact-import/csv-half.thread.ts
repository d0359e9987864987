// The thread that parses the second half of a large CSV file while the reader's thread parses the first (csv-records.ts).
import { parentPort } from 'node:worker_threads';
import { CsvFailure, parseSecondHalf } from './csv-records.js';
import type { HalfReply, HalfRequest } from './csv-half.js';

parentPort!.on('message', ({ id, half, delimiter, recordDelimiter }: HalfRequest) => {
  let reply: HalfReply;
  try {
    reply = { id, records: parseSecondHalf(Buffer.from(half.buffer, half.byteOffset, half.byteLength), delimiter, recordDelimiter) };
  } catch (error) {
    reply = { id, failure: error instanceof CsvFailure ? { code: error.code, records: error.records } : null };
  }
  parentPort!.postMessage(reply);
});
