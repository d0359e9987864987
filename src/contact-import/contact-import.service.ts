import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid, newId } from '../common/ids.js';
import { createdRange, Page, type ListPage } from '../common/list/page.js';
import type { CreatedRangeQueryDto } from '../common/list/list-query.dto.js';
import { Database } from '../database/database.js';
import { GroupRepository } from '../group/group.repository.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { ContactImportRepository, type ImportCounts, type ImportJob, type NewImportJob } from './contact-import.repository.js';
import { CONTACT_IMPORT_QUEUE } from './contact-import.worker.js';
import { ImportFileError, readUpload, type Delimiter, type Upload } from './csv-file.js';
import { readHeader } from './import-columns.js';
import { ImportReader } from './import-reader.js';
import type { ImportJobDto } from './dto/import-job.dto.js';
import type { ImportQueryDto } from './dto/import-query.dto.js';

export const IMPORT_NOT_FOUND = 'id: aucun import pour cet identifiant';

/** `POST /contact/import` queues a job for ContactImportWorker; the other routes read jobs. */
@Injectable()
export class ContactImportService {
  constructor(
    private readonly database: Database,
    private readonly imports: ContactImportRepository,
    private readonly groups: GroupRepository,
    private readonly idempotency: Idempotency,
    private readonly jobs: JobRunner,
    private readonly reader: ImportReader,
    private readonly clock: Clock,
  ) {}

  /**
   * A pending job for the file; 400 when its encoding or its header row is
   * refused (checked here, the rows by the worker), or when `group_id` is not
   * a group of the account.
   */
  async create(principal: Principal, file: Buffer, query: ImportQueryDto, idempotency?: IdempotentRequest): Promise<ImportJobDto> {
    const upload = checkedUpload(file, query);
    const job = await this.idempotency.once(principal.accountId, idempotency, (scope) => this.queue(principal, upload, query, scope));
    if (job.status === 'pending') this.reader.prepare(job.id, upload.bytes, { delimiter: readDelimiter(query), defaultCountry: query.default_country ?? null });
    this.jobs.wake(CONTACT_IMPORT_QUEUE);
    return job;
  }

  /** A job of the key's mode: the other mode's is 404, like another account's. */
  async findOne(principal: Principal, id: string): Promise<ImportJobDto> {
    const job = isUuid(id) ? await this.database.run((sql) => this.imports.find(sql, principal.accountId, principal.test, id)) : null;
    if (!job) throw ApiError.notFound('Non trouvé', [IMPORT_NOT_FOUND]);
    return toImportJobDto(job);
  }

  /** The jobs of the calling key's mode, newest first. */
  list(principal: Principal, query: CreatedRangeQueryDto): Promise<ListPage<ImportJobDto>> {
    const from = query.created_from === undefined ? undefined : new Date(query.created_from);
    const to = query.created_to === undefined ? undefined : new Date(query.created_to);
    const page = Page.of(query, { from: query.created_from, to: query.created_to });
    return this.database.run(async (sql) =>
      page.answer(await this.imports.list(sql, principal.accountId, principal.test, createdRange('id', from, to), page), (job) => job.id, toImportJobDto),
    );
  }

  private queue(principal: Principal, upload: Upload, query: ImportQueryDto, scope?: IdempotencyScope): Promise<ImportJobDto> {
    const createdAt = this.clock.now();
    const job: NewImportJob = {
      id: newId(createdAt),
      accountId: principal.accountId,
      sandbox: principal.test,
      groupId: query.group_id ?? null,
      onDuplicate: query.on_duplicate ?? 'skip',
      defaultCountry: query.default_country ?? null,
      delimiter: readDelimiter(query),
      encoding: upload.encoding,
      createdBy: principal.userId,
      createdAt,
    };
    return this.database.transaction(async (sql) => {
      if (job.groupId !== null && (await this.groups.existing(sql, job.accountId, [job.groupId])).size === 0) {
        throw ApiError.invalidField('group_id', 'groupe non trouvé');
      }
      await this.imports.insert(sql, job, upload.bytes);
      const answer = toImportJobDto({ ...job, status: 'pending', rows: 0, created: 0, updated: 0, duplicates: 0, invalid: 0, errors: [], finishedAt: null });
      await scope?.recordSuccess(sql, answer);
      return answer;
    });
  }
}

/** The file as it is queued, its header row checked; 400 for what makes it impossible to import. */
function checkedUpload(file: Buffer, query: ImportQueryDto): Upload {
  try {
    const upload = readUpload(file, query.encoding ?? 'auto', readDelimiter(query));
    readHeader(upload.header);
    return upload;
  } catch (error) {
    if (error instanceof ImportFileError) throw ApiError.validation([error.message]);
    throw error;
  }
}

/** The file's delimiter as asked; null: detected. */
const readDelimiter = (query: ImportQueryDto): Delimiter | null => (query.delimiter === undefined || query.delimiter === 'auto' ? null : query.delimiter);

function toImportJobDto(job: Pick<ImportJob, 'id' | 'status' | 'groupId' | 'encoding' | 'createdAt' | 'finishedAt' | keyof ImportCounts>): ImportJobDto {
  return {
    id: job.id,
    status: job.status,
    rows: job.rows,
    created: job.created,
    updated: job.updated,
    duplicates: job.duplicates,
    invalid: job.invalid,
    errors: job.errors,
    group_id: job.groupId,
    encoding: job.encoding,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt === null ? null : job.finishedAt.toISOString(),
  };
}
