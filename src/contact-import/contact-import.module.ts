import { Module } from '@nestjs/common';
import { ContactModule } from '../contact/contact.module.js';
import { GroupModule } from '../group/group.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { ContactImportController } from './contact-import.controller.js';
import { ContactImportRepository } from './contact-import.repository.js';
import { ContactImportService } from './contact-import.service.js';
import { ContactImportWorker } from './contact-import.worker.js';
import { ImportReader } from './import-reader.js';

/** CSV imports of contacts: the routes, the job table and the worker that imports the files. */
@Module({
  imports: [ContactModule, GroupModule, OptOutModule, IdempotencyModule, WebhookModule],
  controllers: [ContactImportController],
  providers: [ContactImportRepository, ContactImportService, ContactImportWorker, ImportReader],
})
export class ContactImportModule {}
