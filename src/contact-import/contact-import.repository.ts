import { Injectable } from '@nestjs/common';
import type { Page } from '../common/list/page.js';
import { placeholders, readBoolean, readTime, type Param, type Sql } from '../database/sql.js';
import { LeaseLost, type Lease } from '../jobs/lease.js';
import { LeasedTable } from '../jobs/leased-table.js';
import type { Delimiter, FileEncoding } from './csv-file.js';

export const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export interface RowErrors {
  row: number;
  errors: string[];
}

/** What an import has done so far. */
export interface ImportCounts {
  rows: number;
  created: number;
  updated: number;
  duplicates: number;
  invalid: number;
  /** The first errors per row, in file order. */
  errors: RowErrors[];
}

/** An import job as the worker and the routes read it (its file aside). */
export interface ImportJob extends ImportCounts {
  id: string;
  accountId: string;
  sandbox: boolean;
  status: ImportStatus;
  groupId: string | null;
  onDuplicate: 'skip' | 'update';
  defaultCountry: string | null;
  delimiter: Delimiter | null;
  /** What the file came in; it is kept as UTF-8. */
  encoding: FileEncoding;
  /** Data records already imported, from the start of the file. */
  position: number;
  /** Claims so far, this one included. */
  attempts: number;
  createdBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export type NewImportJob = Pick<
  ImportJob,
  'id' | 'accountId' | 'sandbox' | 'groupId' | 'onDuplicate' | 'defaultCountry' | 'delimiter' | 'encoding' | 'createdBy' | 'createdAt'
>;

interface ImportRow {
  id: string;
  account_id: string;
  sandbox: number | boolean;
  status: ImportStatus;
  group_id: string | null;
  on_duplicate: 'skip' | 'update';
  default_country: string | null;
  delimiter: Delimiter | null;
  encoding: FileEncoding;
  position: number | string;
  total_rows: number | string;
  created: number | string;
  updated: number | string;
  duplicates: number | string;
  invalid: number | string;
  errors: string | null;
  attempts: number | string;
  created_by: string | null;
  created_at: string | Date;
  finished_at: string | Date | null;
}

const COLUMNS = [
  'id', 'account_id', 'sandbox', 'status', 'group_id', 'on_duplicate', 'default_country', 'delimiter', 'encoding', 'position', 'total_rows',
  'created', 'updated', 'duplicates', 'invalid', 'errors', 'attempts', 'created_by', 'created_at', 'finished_at',
];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM contact_import`;
const IMPORTS = new LeasedTable('contact_import', COLUMNS);

/**
 * CSV import jobs: the options and the progress of each, claimed like every
 * job table (LeasedTable), and their files. A finished job is no longer due
 * (`available_at` null) and its file is deleted.
 */
@Injectable()
export class ContactImportRepository {
  async insert(sql: Sql, job: NewImportJob, content: Buffer): Promise<void> {
    await sql.insert('contact_import', {
      id: job.id,
      account_id: job.accountId,
      sandbox: job.sandbox,
      status: 'pending',
      group_id: job.groupId,
      on_duplicate: job.onDuplicate,
      default_country: job.defaultCountry,
      delimiter: job.delimiter,
      encoding: job.encoding,
      available_at: job.createdAt,
      created_by: job.createdBy,
      created_at: job.createdAt,
    });
    await sql.insert('contact_import_file', { import_id: job.id, content });
  }

  async find(sql: Sql, accountId: string, sandbox: boolean, id: string): Promise<ImportJob | null> {
    const row = await sql.get<ImportRow>(`${SELECT} WHERE id = ? AND account_id = ? AND sandbox = ?`, [id, accountId, sandbox]);
    return row ? toJob(row) : null;
  }

  /** A page of the account's jobs of one mode, newest first. */
  async list(sql: Sql, accountId: string, sandbox: boolean, idRange: { conditions: string[]; params: string[] }, page: Page): Promise<ImportJob[]> {
    const [text, values] = page.query(SELECT, 'id', ['account_id = ?', 'sandbox = ?', ...idRange.conditions], [accountId, sandbox, ...idRange.params]);
    return (await sql.all<ImportRow>(text, values)).map(toJob);
  }

  /** Takes due jobs for `lease.owner`; they are `processing` from then on. */
  async claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<ImportJob[]> {
    const rows = await IMPORTS.claim<ImportRow>(sql, lease, now, limit);
    if (rows.length > 0) {
      const ids = rows.map((row) => row.id);
      await sql.later(`UPDATE contact_import SET status = 'processing' WHERE id IN (${placeholders(ids)})`, ids);
    }
    return rows.map((row) => ({ ...toJob(row), status: 'processing', attempts: Number(row.attempts) + 1 }));
  }

  renew(sql: Sql, ids: string[], lease: Lease, now: Date): Promise<number> {
    return IMPORTS.renew(sql, ids, lease, now);
  }

  /** Gives the unfinished jobs `owner` holds among `ids` back to every instance, due at once. */
  release(sql: Sql, ids: string[], owner: string, now: Date): Promise<number> {
    return IMPORTS.release(sql, ids, owner, now);
  }

  /** In the unit that imports part of a job: extends its claim, or throws LeaseLost when another instance holds it. */
  hold(sql: Sql, queue: string, id: string, lease: Lease, now: Date): Promise<void> {
    return IMPORTS.hold(sql, queue, id, lease, now);
  }

  /** The file of a claimed job. */
  async content(sql: Sql, id: string): Promise<Buffer> {
    return (await sql.get<{ content: Buffer }>('SELECT content FROM contact_import_file WHERE import_id = ?', [id]))!.content;
  }

  /**
   * Records the progress of a held job, which had imported `from` records:
   * now `position`, with these counts, and finished when `finished` says so.
   * Throws LeaseLost when the job has moved on meanwhile.
   */
  async progress(
    sql: Sql,
    queue: string,
    id: string,
    from: number,
    position: number,
    counts: ImportCounts,
    finished: { status: 'completed' | 'failed'; at: Date } | null,
  ): Promise<void> {
    const sets = ['position = ?', 'total_rows = ?', 'created = ?', 'updated = ?', 'duplicates = ?', 'invalid = ?', 'errors = ?'];
    const params: Param[] = [position, counts.rows, counts.created, counts.updated, counts.duplicates, counts.invalid, JSON.stringify(counts.errors)];
    if (finished) {
      sets.push('status = ?', 'finished_at = ?', 'available_at = NULL');
      params.push(finished.status, finished.at);
    }
    const changed = await sql.run(`UPDATE contact_import SET ${sets.join(', ')} WHERE id = ? AND position = ?`, [...params, id, from]);
    if (changed !== 1) throw new LeaseLost(queue, id);
    if (finished) await sql.later('DELETE FROM contact_import_file WHERE import_id = ?', [id]);
  }
}

function toJob(row: ImportRow): ImportJob {
  return {
    id: row.id,
    accountId: row.account_id,
    sandbox: readBoolean(row.sandbox),
    status: row.status,
    groupId: row.group_id,
    onDuplicate: row.on_duplicate,
    defaultCountry: row.default_country,
    delimiter: row.delimiter,
    encoding: row.encoding,
    position: Number(row.position),
    rows: Number(row.total_rows),
    created: Number(row.created),
    updated: Number(row.updated),
    duplicates: Number(row.duplicates),
    invalid: Number(row.invalid),
    errors: row.errors ? (JSON.parse(row.errors) as RowErrors[]) : [],
    attempts: Number(row.attempts),
    createdBy: row.created_by,
    createdAt: readTime(row.created_at),
    finishedAt: readTime(row.finished_at),
  };
}
