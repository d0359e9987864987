import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../auth/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { GroupDto } from './dto/group.dto.js';
import { GROUP_NOT_FOUND, GroupService } from './group.service.js';

const GroupIdParam = () =>
  ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the group', example: '0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20' });
const GroupNotFound = () =>
  ApiFailure(404, GROUP_NOT_FOUND, "No such group in the caller's account (also for a malformed id)");

@ApiTags('Groupe')
@Controller('group')
export class GroupController {
  constructor(private readonly groups: GroupService) {}

  @Get(':id')
  @ApiOperation({ summary: 'Read one group' })
  @GroupIdParam()
  @RespondWith(200, 'succès', GroupDto)
  @GroupNotFound()
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<GroupDto> {
    return this.groups.findOne(principal.accountId, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete one group and its memberships (its contacts stay)' })
  @GroupIdParam()
  @RespondWith(200, 'success')
  @GroupNotFound()
  delete(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.groups.delete(principal.accountId, id);
  }
}
