import { isUtf8 } from 'node:buffer';
import { parseOnHalfThread } from './csv-half.js';
import { CsvFailure, parseFirstRecord, parseRecords, type Delimiter, type SecondHalfParser } from './csv-records.js';

export type { Delimiter } from './csv-records.js';

/** A CSV file as rows of cells: its header, then its data records in file order (record `i` is spreadsheet row `i + 2`). */
export interface CsvTable {
  header: string[];
  records: string[][];
}

/** The file cannot be imported at all; `row` is the spreadsheet row at fault (the header is 1), 0 for the whole file. */
export class ImportFileError extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const WINDOWS_1252 = new TextDecoder('windows-1252');
const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');

/** How `?encoding=` asks the file to be read: `auto` takes a file that is not UTF-8 as Windows-1252. */
export const ENCODINGS = ['auto', 'utf-8', 'windows-1252'] as const;
export type FileEncoding = Exclude<(typeof ENCODINGS)[number], 'auto'>;

/** An uploaded file as it is queued: UTF-8 bytes, the encoding it came in, and its header row. */
export interface Upload {
  bytes: Buffer;
  encoding: FileEncoding;
  header: string[];
}

/**
 * What can be checked of a file before it is queued: not an Excel workbook,
 * its encoding (UTF-8 with or without BOM; otherwise Windows-1252, what
 * spreadsheet programs write by default on Windows, unless `encoding` asks
 * for UTF-8), and its header row. Throws ImportFileError; the bytes returned
 * are UTF-8.
 */
export function readUpload(bytes: Buffer, encoding: (typeof ENCODINGS)[number], delimiter: Delimiter | null): Upload {
  if (bytes.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw new ImportFileError(0, EXCEL_FILE);
  const utf8 = encoding !== 'windows-1252' && isUtf8(bytes);
  if (!utf8 && encoding === 'utf-8') throw new ImportFileError(0, 'body: texte non UTF-8');
  const converted = utf8 ? bytes : Buffer.from(WINDOWS_1252.decode(bytes), 'utf8');
  const head = converted.subarray(0, 4096).toString('utf8');
  let header: string[];
  try {
    header = parseFirstRecord(converted, delimiter ?? detectDelimiter(head));
  } catch (error) {
    if (!(error instanceof CsvFailure)) throw error;
    throw new ImportFileError(1, `fichier: CSV illisible (${describe(error.code)})`);
  }
  if (header.every((cell) => cell.trim() === '')) throw new ImportFileError(1, NO_HEADER);
  return { bytes: converted, encoding: utf8 ? 'utf-8' : 'windows-1252', header };
}

const EXCEL_FILE = 'fichier: classeur Excel reçu, enregistrez-le au format CSV UTF-8';
const NO_HEADER = "fichier: ligne d'en-tête obligatoire";

/**
 * Reads a CSV file: UTF-8 only (checked whole, BOM stripped), the delimiter
 * given or, when null, the one of `,` and `;` its first line uses most.
 * Quotes follow RFC 4180, leniently (a quote inside an unquoted cell is
 * kept); rows may have fewer or more cells than the header. A large file's
 * second half is parsed on a thread of its own (`secondHalf`) meanwhile.
 */
export async function readCsvFile(bytes: Buffer, delimiter: Delimiter | null, secondHalf: SecondHalfParser | null = parseOnHalfThread): Promise<CsvTable> {
  if (bytes.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
    throw new ImportFileError(0, EXCEL_FILE);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ImportFileError(0, 'fichier: encodage UTF-8 attendu');
  }
  const [header, ...records] = await parseRecords(bytes, delimiter ?? detectDelimiter(text), secondHalf).catch((error: unknown) => {
    if (!(error instanceof CsvFailure)) throw error;
    throw new ImportFileError(error.records + 1, `fichier: CSV illisible (${describe(error.code)})`);
  });
  if (!header || header.every((cell) => cell.trim() === '')) throw new ImportFileError(1, NO_HEADER);
  return { header, records };
}

/** The delimiter of the first line: `;` when it has more semicolons than commas outside quotes (French Excel), else `,`. */
export function detectDelimiter(text: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (char === '\n' || char === '\r') break;
    else if (char === ',') commas++;
    else if (char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

function describe(code: string): string {
  if (code === 'CSV_QUOTE_NOT_CLOSED') return 'guillemet non fermé';
  if (code === 'CSV_INVALID_CLOSING_QUOTE') return 'caractère après un guillemet fermant';
  return 'format invalide';
}
