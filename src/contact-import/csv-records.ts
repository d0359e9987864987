import { finished } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse, type Options } from 'csv-parse';
import { parse as parseWhole } from 'csv-parse/sync';

export type Delimiter = ',' | ';';
/** What ends a record: csv-parse finds it at the first line break outside quotes, as `\r\n`, `\n` or `\r`. */
type RecordDelimiter = '\r\n' | '\n' | '\r';

/** Why csv-parse stopped: its error code, and the records it had read before. */
export class CsvFailure extends Error {
  constructor(
    readonly code: string,
    readonly records: number,
  ) {
    super(code);
  }
}

/** The second half of a file, parsed elsewhere (on a thread of its own) while the first half is parsed here. */
export type SecondHalfParser = (half: Buffer, delimiter: Delimiter, recordDelimiter: RecordDelimiter) => Promise<string[][]>;

/** Quotes follow RFC 4180, leniently (a quote inside an unquoted cell is kept); rows may have fewer or more cells than the header. */
const LENIENT: Options = { bom: true, relax_column_count: true, relax_quotes: true };
/** Bytes handed to the parser at a time: a large file is parsed over many turns of the event loop, not in one. */
const SLICE_BYTES = 128 * 1024;
/** Files of this size and more are parsed in two halves at once; below it, a thread's round trip costs more than it saves. */
export const HALVES_FROM_BYTES = 1024 * 1024;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The records of a CSV file (its header first), or CsvFailure. A large file is
 * cut in two at a line break that ends a record and both halves are parsed at
 * once, the second by `secondHalf`: the records are those of a parse of the
 * whole file, since the first half, parsed alone, proves the cut a record
 * boundary (it ends outside quotes, with the record delimiter csv-parse found
 * for the whole file) and the second half is then parsed as csv-parse goes on
 * from one. A first half that does not prove it, or a second half that cannot
 * be had, sends the whole file to one parse.
 */
export async function parseRecords(
  bytes: Buffer,
  delimiter: Delimiter,
  secondHalf: SecondHalfParser | null,
  halvesFromBytes = HALVES_FROM_BYTES,
): Promise<string[][]> {
  const cut = secondHalf && bytes.length >= halvesFromBytes ? cutInTwo(bytes) : null;
  if (!cut) return (await parseInSlices(bytes, { ...LENIENT, delimiter })).records;
  const second = secondHalf!(bytes.subarray(cut.at), delimiter, cut.recordDelimiter).then(
    (records) => ({ records }),
    (failure: unknown) => (failure instanceof CsvFailure ? { failure } : null),
  );
  const first = await parseInSlices(bytes.subarray(0, cut.at), { ...LENIENT, delimiter }).catch(() => null);
  const rest = first?.recordDelimiter === cut.recordDelimiter ? await second : null;
  if (!rest) return (await parseInSlices(bytes, { ...LENIENT, delimiter })).records;
  if ('failure' in rest) throw new CsvFailure(rest.failure.code, first!.records.length + rest.failure.records);
  return first!.records.concat(rest.records);
}

/** Bytes of a file read to find its header row before it is queued: a header is one line, far shorter. */
const HEADER_BYTES = 64 * 1024;

/** The first record of a file (its header row), read from its first 64 KiB; empty for an empty file. */
export function parseFirstRecord(bytes: Buffer, delimiter: Delimiter): string[] {
  const start = bytes.subarray(0, HEADER_BYTES);
  // whole lines only: a record cut short by the 64 KiB would be misread, or refused for its quotes
  const end = start.length < bytes.length ? Math.max(start.lastIndexOf(LF), start.lastIndexOf(CR)) + 1 : start.length;
  try {
    return (parseWhole(start.subarray(0, end), { ...LENIENT, delimiter, to: 1 }) as string[][])[0] ?? [];
  } catch (error) {
    throw failureOf(error);
  }
}

/** How the second half of a file is parsed: as csv-parse goes on past a record, with the delimiters of the file. */
export function parseSecondHalf(half: Buffer, delimiter: Delimiter, recordDelimiter: RecordDelimiter): string[][] {
  try {
    return parseWhole(half, { ...LENIENT, bom: false, delimiter, record_delimiter: recordDelimiter }) as string[][];
  } catch (error) {
    throw failureOf(error);
  }
}

/**
 * Where to cut the file: just past the first record delimiter after its middle
 * with an even number of quotes before it (so likely outside quotes; the parse
 * of the first half checks it). The record delimiter is the file's first line
 * break, as csv-parse finds it (checked too); none for `\r` alone (old Mac
 * files, rare) or when no such place exists.
 */
function cutInTwo(bytes: Buffer): { at: number; recordDelimiter: '\r\n' | '\n' } | null {
  const firstBreak = bytes.findIndex((byte) => byte === LF || byte === CR);
  if (firstBreak < 0 || (bytes[firstBreak] === CR && bytes[firstBreak + 1] !== LF)) return null;
  const recordDelimiter = bytes[firstBreak] === CR ? '\r\n' : '\n';
  let quotes = 0;
  for (let at = bytes.indexOf(QUOTE); at >= 0 && at < bytes.length / 2; at = bytes.indexOf(QUOTE, at + 1)) quotes++;
  for (let at = Math.floor(bytes.length / 2); at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) quotes++;
    else if (byte === LF && quotes % 2 === 0 && (recordDelimiter === '\n' || bytes[at - 1] === CR))
      return at + 1 < bytes.length ? { at: at + 1, recordDelimiter } : null;
  }
  return null;
}

async function parseInSlices(bytes: Buffer, options: Options): Promise<{ records: string[][]; recordDelimiter: string }> {
  const parser = parse(options);
  const records: string[][] = [];
  parser.on('data', (record: string[]) => records.push(record));
  const failure = finished(parser).then(
    () => undefined,
    (error: unknown) => error,
  );
  for (let start = 0; start < bytes.length && !parser.destroyed; start += SLICE_BYTES) {
    parser.write(bytes.subarray(start, start + SLICE_BYTES));
    await nextTurn();
  }
  if (!parser.destroyed) parser.end();
  const error = await failure;
  if (error) throw failureOf(error);
  const found = (parser.options.record_delimiter as Buffer[] | undefined)?.[0];
  return { records, recordDelimiter: found ? found.toString('latin1') : '' };
}

function failureOf(error: unknown): unknown {
  return error instanceof CsvError ? new CsvFailure(error.code, (error as CsvError & { records?: number }).records ?? 0) : error;
}
