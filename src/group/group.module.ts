import { Module } from '@nestjs/common';
import { GroupController } from './group.controller.js';
import { GroupRepository } from './group.repository.js';
import { GroupService } from './group.service.js';

@Module({
  controllers: [GroupController],
  providers: [GroupService, GroupRepository],
  exports: [GroupRepository],
})
export class GroupModule {}
