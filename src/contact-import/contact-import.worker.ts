import { setImmediate as nextTurn } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { contactImportConfig, type ContactImportConfig } from '../config/contact-import.config.js';
import { ContactWriter } from '../contact/contact-writer.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { GroupRepository } from '../group/group.repository.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import type { Lease } from '../jobs/lease.js';
import { OptOutWriter } from '../opt-out/opt-out-writer.js';
import type { ContactImportEventDataDto } from '../webhook/dto/contact-import-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { ContactImportRepository, type ImportCounts, type ImportJob, type RowErrors } from './contact-import.repository.js';
import { ImportFileError, readCsvFile } from './csv-file.js';
import { readHeader, type Column } from './import-columns.js';
import { readRow, type ImportRow } from './import-rows.js';

export const CONTACT_IMPORT_QUEUE = 'contact-import';

/** Data records imported per transaction. */
const CHUNK_ROWS = 500;
/** Rows checked between two turns of the event loop. */
const CHECK_SLICE_ROWS = 25;
/** Errors per row a job keeps, the first in file order. */
const MAX_ERRORS = 1000;
/** A job claimed this many times without finishing (its instance kept dying under it) is failed. */
const MAX_ATTEMPTS = 5;

type Finished = { status: 'completed' | 'failed'; at: Date };

/** A data row once the rows before it in the file are known: a phone already seen there makes it a duplicate. */
type Classified = ImportRow | { row: number; kind: 'duplicate' };

/**
 * The CSV import job queue, on every instance. A claimed job's file is read
 * whole (and refused whole when it cannot be imported), then imported 500
 * records per transaction from where the job stands: the contacts, their
 * membership of the job's group, the opt-outs and the job's counts and
 * position commit together, after checking the claim (LeasedTable.hold), so
 * that a job taken up again after its instance died goes on from its last
 * committed chunk and no chunk is imported twice.
 */
@Injectable()
export class ContactImportWorker implements JobQueue<ImportJob> {
  readonly name = CONTACT_IMPORT_QUEUE;
  readonly batchSize = 1;
  readonly pollMs = 1_000;
  readonly leaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly imports: ContactImportRepository,
    private readonly writer: ContactWriter,
    private readonly groups: GroupRepository,
    private readonly optOuts: OptOutWriter,
    private readonly webhooks: WebhookEvents,
    private readonly clock: Clock,
    @Inject(contactImportConfig.KEY) private readonly config: ContactImportConfig,
    jobs: JobRunner,
  ) {
    this.leaseMs = config.leaseMs;
    jobs.register(this);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<ImportJob[]> {
    return this.imports.claim(sql, lease, now, limit);
  }

  async renew(sql: Sql, jobs: ImportJob[], lease: Lease, now: Date): Promise<void> {
    await this.imports.renew(sql, jobs.map((job) => job.id), lease, now);
  }

  async process(jobs: ImportJob[], lease: Lease): Promise<void> {
    for (const job of jobs) await this.run(job, lease);
  }

  private async run(job: ImportJob, lease: Lease): Promise<void> {
    if (job.attempts > MAX_ATTEMPTS) {
      return this.fail(job, lease, countsOf(job, job.rows), { row: 0, errors: [`fichier: import interrompu ${MAX_ATTEMPTS} fois, abandonné`] });
    }
    let columns: Column[];
    let records: string[][];
    try {
      const table = await readCsvFile(await this.database.run((sql) => this.imports.content(sql, job.id)), job.delimiter);
      columns = readHeader(table.header);
      records = table.records;
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      return this.fail(job, lease, noCounts(0), { row: error.row, errors: [error.message] });
    }
    const rows = records.filter((cells) => cells.some((cell) => cell.trim() !== '')).length;
    if (rows > this.config.maxRows) {
      return this.fail(job, lease, noCounts(rows), { row: 0, errors: [`fichier: ${rows} lignes de données, ${this.config.maxRows} au plus`] });
    }

    let progress = countsOf(job, rows);
    const seen = new Set<string>();
    let start = 0;
    for (; start < job.position; start += CHUNK_ROWS) classify(await this.readChunk(records, start, columns, job), seen);
    // each chunk is read and checked while the one before it is being written
    let chunk = await this.readChunk(records, start, columns, job);
    for (;;) {
      const next = start + chunk.length;
      const [outcome, following] = await Promise.all([
        this.importChunk(job, lease, classify(chunk, seen), progress, start, next >= records.length),
        this.readChunk(records, next, columns, job),
      ]);
      if (outcome.finished) return;
      progress = outcome.counts;
      start = next;
      chunk = following;
    }
  }

  /** The rows of a chunk, checked a slice at a time: other work gets the event loop in between. */
  private async readChunk(records: string[][], start: number, columns: Column[], job: ImportJob): Promise<ImportRow[]> {
    const rows: ImportRow[] = [];
    for (let index = start; index < Math.min(start + CHUNK_ROWS, records.length); index++) {
      rows.push(readRow(records[index]!, columns, index + 2, job.defaultCountry));
      if ((index + 1) % CHECK_SLICE_ROWS === 0) await nextTurn();
    }
    return rows;
  }

  /**
   * Imports the rows of one chunk in one transaction, with the job's counts
   * and position; finishes the job with the last chunk, or when its group is
   * gone. `progress` is only read: the transaction may run again (MySQL deadlock).
   */
  private importChunk(job: ImportJob, lease: Lease, chunk: Classified[], progress: ImportCounts, from: number, last: boolean) {
    const fresh = chunk.filter((entry) => entry.kind === 'valid');
    return this.database.transaction(async (sql) => {
      const at = this.clock.now();
      await this.imports.hold(sql, this.name, job.id, lease, at);
      const counts: ImportCounts = { ...progress, errors: [...progress.errors] };
      if (job.groupId !== null && !(await this.groups.lock(sql, job.accountId, job.groupId))) {
        addError(counts, { row: 0, errors: ["group_id: groupe non trouvé (supprimé pendant l'import)"] });
        await this.finish(sql, job, counts, from, from, { status: 'failed', at });
        return { counts, finished: true };
      }
      const outcomes = await this.writer.upsert(
        sql,
        fresh.map((entry) => entry.input),
        { accountId: job.accountId, createdBy: job.createdBy, onDuplicate: job.onDuplicate, at },
      );
      const members: string[] = [];
      const optedOut: string[] = [];
      let n = 0;
      for (const entry of chunk) {
        if (entry.kind === 'blank') continue;
        if (entry.kind === 'duplicate') counts.duplicates++;
        if (entry.kind === 'invalid') {
          counts.invalid++;
          addError(counts, { row: entry.row, errors: entry.errors });
        }
        if (entry.kind !== 'valid') continue;
        const outcome = outcomes[n++]!;
        if (outcome.kind === 'invalid') {
          counts.invalid++;
          addError(counts, { row: entry.row, errors: outcome.errors });
          continue;
        }
        if (outcome.kind === 'created') counts.created++;
        else if (outcome.kind === 'updated') counts.updated++;
        else counts.duplicates++;
        members.push(outcome.id);
        if (entry.optedOut) optedOut.push(entry.input.phone.e164);
      }
      if (job.groupId !== null) await this.groups.addMembers(sql, job.groupId, members, at);
      if (optedOut.length > 0) {
        await this.optOuts.add(sql, optedOut, { accountId: job.accountId, sandbox: job.sandbox, source: 'import', createdBy: job.createdBy, at });
      }
      const to = from + chunk.length;
      if (!last) {
        await this.imports.progress(sql, this.name, job.id, from, to, counts, null);
        return { counts, finished: false };
      }
      await this.finish(sql, job, counts, from, to, { status: 'completed', at });
      return { counts, finished: true };
    });
  }

  /** Fails the whole job (nothing more is imported), keeping what it had done. */
  private async fail(job: ImportJob, lease: Lease, done: ImportCounts, error: RowErrors): Promise<void> {
    await this.database.transaction(async (sql) => {
      const at = this.clock.now();
      await this.imports.hold(sql, this.name, job.id, lease, at);
      const counts: ImportCounts = { ...done, errors: [...done.errors] };
      addError(counts, error);
      await this.finish(sql, job, counts, job.position, job.position, { status: 'failed', at });
    });
  }

  /** Records the job's end and reports it to the account's webhook, in the unit `sql`. */
  private async finish(sql: Sql, job: ImportJob, counts: ImportCounts, from: number, to: number, finished: Finished): Promise<void> {
    await this.imports.progress(sql, this.name, job.id, from, to, counts, finished);
    const data: ContactImportEventDataDto = {
      id: job.id,
      status: finished.status,
      rows: counts.rows,
      created: counts.created,
      updated: counts.updated,
      duplicates: counts.duplicates,
      invalid: counts.invalid,
      group_id: job.groupId,
      created_at: job.createdAt.toISOString(),
      finished_at: finished.at.toISOString(),
      sandbox: job.sandbox,
    };
    await this.webhooks.emit(sql, { accountId: job.accountId, type: 'contact_import.completed', data, at: finished.at, subjectId: job.id, sequence: 1 });
  }
}

/** Marks the valid rows whose phone came earlier in the file (`seen`, then this chunk) as duplicates: the first row wins. */
function classify(chunk: ImportRow[], seen: Set<string>): Classified[] {
  return chunk.map((entry) => {
    if (entry.kind !== 'valid') return entry;
    const phone = entry.input.phone.e164;
    if (seen.has(phone)) return { row: entry.row, kind: 'duplicate' };
    seen.add(phone);
    return entry;
  });
}

function addError(counts: ImportCounts, error: RowErrors): void {
  if (counts.errors.length < MAX_ERRORS) counts.errors.push(error);
}

const noCounts = (rows: number): ImportCounts => ({ rows, created: 0, updated: 0, duplicates: 0, invalid: 0, errors: [] });

/** What the job had done when it was claimed, in a file of `rows` data rows. */
const countsOf = (job: ImportJob, rows: number): ImportCounts => ({
  rows,
  created: job.created,
  updated: job.updated,
  duplicates: job.duplicates,
  invalid: job.invalid,
  errors: job.errors,
});
