import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { CSV_REQUEST_BODY, CsvBody, CsvFile, FILE_PART, FORM_LIMITS } from '../common/http/csv-body.js';
import { CreatedRangeQueryDto } from '../common/list/list-query.dto.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { ContactImportService, IMPORT_NOT_FOUND } from './contact-import.service.js';
import { ImportJobDto } from './dto/import-job.dto.js';
import { ImportQueryDto } from './dto/import-query.dto.js';

const IMPORT_DESCRIPTION = `The encoding and the header row are checked at once (400); the rows are imported in the background: read the job with \`GET /contact/import/{id}\`, or wait for the \`contact_import.completed\` webhook.

- **File**: UTF-8 with or without a byte-order mark; a file that is not valid UTF-8 is read as Windows-1252 (what spreadsheet programs write by default on Windows) and the job says \`encoding: "windows-1252"\`, unless \`encoding=utf-8\` asks to refuse it (400 \`body: texte non UTF-8\`). Delimiter \`,\` or \`;\`, at most \`CONTACT_IMPORT_MAX_BYTES\` (5 MiB) and 50,000 data rows.
- **Form** (\`multipart/form-data\`): the file in the part \`${FILE_PART}\`, at most ${FORM_LIMITS.files} file and ${FORM_LIMITS.fields} other fields (ignored, ${FORM_LIMITS.fieldSize} bytes of each read). Past them: 400 naming the limit; a file over \`CONTACT_IMPORT_MAX_BYTES\`: 413 naming it.
- **Header row**, required; without a phone column: 400 \`fichier: colonne de téléphone introuvable (en-têtes: …)\`. \`phone\` (or \`phone_number\`, \`mobile\`, \`telephone\`, \`téléphone\`, \`numero\`) is required; \`name\`, \`email\`, \`language\` (fr, en, es, pt) and \`opted_out\` (true/false) are read; every other column becomes an attribute named after it (lower case, accents and punctuation made \`_\`). Names are compared without case or accents.
- **Rows** are checked as \`POST /contact\` checks a contact; an empty cell is a field not given. A phone given again later in the file keeps its first row. \`opted_out=true\` puts the number on the opt-out list (source \`import\`).`;

@ApiTags('Contact')
@Controller('contact/import')
export class ContactImportController {
  constructor(private readonly imports: ContactImportService) {}

  @Post()
  @CsvBody()
  @ApiOperation({ summary: 'Import contacts from a CSV file', description: IMPORT_DESCRIPTION, requestBody: CSV_REQUEST_BODY })
  @RespondWith(202, 'succès', ImportJobDto, 'The job, queued (`pending`)')
  @ApiFailure(400, 'erreur_de_validation', 'A bad query parameter, no file, a file refused whole (encoding, header row, form limits), or a group that is not the account\'s', {
    errors: ['fichier: colonne de téléphone introuvable (en-têtes: nom, email)'],
  })
  @ApiIdempotencyKey()
  create(
    @CurrentPrincipal() principal: Principal,
    @CsvFile() file: Buffer,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Query() query: ImportQueryDto,
  ): Promise<ImportJobDto> {
    return this.imports.create(principal, file, query, idempotency);
  }

  @Get()
  @ApiOperation({ summary: "List the CSV imports of the calling key's mode, newest first" })
  @RespondWithList(ImportJobDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['cursor: curseur invalide'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CreatedRangeQueryDto): Promise<ListPage<ImportJobDto>> {
    return this.imports.list(principal, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a CSV import: its status, counts and errors per row' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the import', example: '0193a3c2-b4d5-7e6f-8a9b-0c1d2e3f4a50' })
  @RespondWith(200, 'succès', ImportJobDto)
  @ApiFailure(404, 'Non trouvé', "No such import in the caller's account and key mode (also for a malformed id)", { errors: [IMPORT_NOT_FOUND] })
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ImportJobDto> {
    return this.imports.findOne(principal, id);
  }
}
