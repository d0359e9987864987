import { readCsvFile, type Delimiter } from './csv-file.js';
import { readHeader, type Column } from './import-columns.js';
import { readRow, type ImportRow } from './import-rows.js';

/** Data records imported per transaction. */
export const CHUNK_ROWS = 500;

/** A data row once the rows before it in the file are known: a phone already seen there makes it a duplicate. */
export type Classified = ImportRow | { row: number; kind: 'duplicate' };

/**
 * The file of an import, read whole (ImportFileError when it cannot be
 * imported at all), then its records checked 500 at a time from the job's
 * position; a valid row whose phone came earlier in the file is a duplicate
 * (the first row wins, the rows before the position included).
 */
export class ImportChunks {
  /** Data records in the file, blank ones included. */
  readonly records: number;
  /** Data rows in the file, blank ones aside. */
  readonly rows: number;
  private readonly seen = new Set<string>();
  private next = 0;

  private constructor(
    private readonly cells: string[][],
    private readonly columns: Column[],
    private readonly defaultCountry: string | null,
    private readonly position: number,
  ) {
    this.records = cells.length;
    this.rows = cells.filter((record) => record.some((cell) => cell.trim() !== '')).length;
  }

  static async read(file: Buffer, options: { delimiter: Delimiter | null; defaultCountry: string | null; position: number }): Promise<ImportChunks> {
    const table = await readCsvFile(file, options.delimiter);
    return new ImportChunks(table.records, readHeader(table.header), options.defaultCountry, options.position);
  }

  /** Every chunk from the position taken. */
  get finished(): boolean {
    return Math.max(this.next, this.position) >= this.records;
  }

  /** The next chunk from the position; empty past the end. */
  take(): Classified[] {
    while (this.next < this.position) this.chunk();
    return this.chunk();
  }

  private chunk(): Classified[] {
    const end = Math.min(this.next + CHUNK_ROWS, this.records);
    const chunk: Classified[] = [];
    for (let index = this.next; index < end; index++) {
      const entry = readRow(this.cells[index]!, this.columns, index + 2, this.defaultCountry);
      if (entry.kind === 'valid' && this.seen.has(entry.input.phone.e164)) chunk.push({ row: entry.row, kind: 'duplicate' });
      else {
        if (entry.kind === 'valid') this.seen.add(entry.input.phone.e164);
        chunk.push(entry);
      }
    }
    this.next = end;
    return chunk;
  }
}
