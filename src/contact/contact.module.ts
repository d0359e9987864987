import { Module } from '@nestjs/common';
import { GroupModule } from '../group/group.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { ContactBulkService } from './contact-bulk.service.js';
import { ContactWriter } from './contact-writer.js';
import { ContactController } from './contact.controller.js';
import { ContactRepository } from './contact.repository.js';
import { ContactService } from './contact.service.js';
import { GroupContactsController } from './group-contacts.controller.js';
import { GroupMembersService } from './group-members.service.js';

/** Contacts, and the members of groups (which are contacts). */
@Module({
  imports: [GroupModule, IdempotencyModule],
  controllers: [ContactController, GroupContactsController],
  providers: [ContactRepository, ContactWriter, ContactService, ContactBulkService, GroupMembersService],
  exports: [ContactRepository, ContactWriter, ContactService],
})
export class ContactModule {}
