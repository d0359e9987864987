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
import { ContactImportEventDataDto, ContactImportWebhookEventDto } from './dto/contact-import-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { ContactImportRepository, type ImportCounts, type ImportJob, type RowErrors } from './contact-import.repository.js';
import { ImportFileError } from './csv-file.js';
import type { Classified } from './import-chunks.js';
import { ImportReader, type ImportFile } from './import-reader.js';

export const CONTACT_IMPORT_QUEUE = 'contact-import';

/** Errors per row a job keeps, the first in file order. */
const MAX_ERRORS = 1000;
/** A job claimed this many times without finishing (its instance kept dying under it) is failed. */
const MAX_ATTEMPTS = 5;

type Finished = { status: 'completed' | 'failed'; at: Date };

/**
 * The CSV import job queue, on every instance. A claimed job's file is read
 * whole (and refused whole when it cannot be imported) by the ImportReader,
 * then imported 500 records per transaction from where the job stands: the contacts, their
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
    private readonly reader: ImportReader,
    private readonly writer: ContactWriter,
    private readonly groups: GroupRepository,
    private readonly optOuts: OptOutWriter,
    private readonly webhooks: WebhookEvents,
    private readonly clock: Clock,
    @Inject(contactImportConfig.KEY) private readonly config: ContactImportConfig,
    jobs: JobRunner,
  ) {
    webhooks.describe(ContactImportWebhookEventDto, ContactImportEventDataDto);
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

  /** A job this instance failed (its reader thread lost, its database gone) goes on from its last committed chunk. */
  async release(sql: Sql, jobs: ImportJob[], lease: Lease, now: Date): Promise<void> {
    await this.imports.release(sql, jobs.map((job) => job.id), lease.owner, now);
  }

  private async run(job: ImportJob, lease: Lease): Promise<void> {
    if (job.attempts > MAX_ATTEMPTS) {
      return this.fail(job, lease, countsOf(job, job.rows), { row: 0, errors: [`fichier: import interrompu ${MAX_ATTEMPTS} fois, abandonné`] });
    }
    let file: ImportFile;
    try {
      const content = await this.database.run((sql) => this.imports.content(sql, job.id));
      file = await this.reader.open(job.id, content, { delimiter: job.delimiter, defaultCountry: job.defaultCountry, position: job.position });
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      return this.fail(job, lease, noCounts(0), { row: error.row, errors: [error.message] });
    }
    try {
      await this.importFile(job, lease, file);
    } finally {
      file.close();
    }
  }

  private async importFile(job: ImportJob, lease: Lease, file: ImportFile): Promise<void> {
    if (file.rows > this.config.maxRows) {
      return this.fail(job, lease, noCounts(file.rows), { row: 0, errors: [`fichier: ${file.rows} lignes de données, ${this.config.maxRows} au plus`] });
    }
    let progress = countsOf(job, file.rows);
    let start = job.position;
    // each chunk is read and checked while the one before it is being written
    let chunk = await file.next();
    for (;;) {
      const next = start + chunk.length;
      const last = next >= file.records;
      const [outcome, following] = await Promise.all([this.importChunk(job, lease, chunk, progress, start, last), last ? [] : file.next()]);
      if (outcome.finished) return;
      progress = outcome.counts;
      start = next;
      chunk = following;
    }
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
      encoding: job.encoding,
      created_at: job.createdAt.toISOString(),
      finished_at: finished.at.toISOString(),
      sandbox: job.sandbox,
    };
    await this.webhooks.emit(sql, { accountId: job.accountId, type: 'contact_import.completed', data, at: finished.at, subjectId: job.id, sequence: 1 });
  }
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
