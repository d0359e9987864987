import { Module } from '@nestjs/common';
import { GroupController } from './group.controller.js';
import { GroupRepository } from './group.repository.js';
import { GroupService } from './group.service.js';

/** Groups and their memberships; the member routes, which read and create contacts, are the contact module's. */
@Module({
  controllers: [GroupController],
  providers: [GroupService, GroupRepository],
  exports: [GroupRepository, GroupService],
})
export class GroupModule {}
