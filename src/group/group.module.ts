import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupMember } from './entities/group-member.entity.js';
import { Group } from './entities/group.entity.js';
import { GroupController } from './group.controller.js';
import { GroupRepository } from './group.repository.js';
import { GroupService } from './group.service.js';

/** Groups and their memberships; the member routes, which read and create contacts, are the contact module's. */
@Module({
  imports: [TypeOrmModule.forFeature([Group, GroupMember])],
  controllers: [GroupController],
  providers: [GroupService, GroupRepository],
  exports: [GroupRepository, GroupService],
})
export class GroupModule {}
