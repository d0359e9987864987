import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { GroupDto } from './dto/group.dto.js';
import { CreateGroupDto, GroupQueryDto, UpdateGroupDto } from './dto/group-input.dto.js';
import { GROUP_NOT_FOUND, GroupService } from './group.service.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

export const GroupIdParam = () =>
  ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the group', example: '0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20' });
export const GroupNotFound = () => ApiFailure(404, GROUP_NOT_FOUND, "No such group in the caller's account (also for a malformed id)");
const NameTaken = () =>
  ApiFailure(409, 'deja_existant', 'The account has a group of that name (case ignored)', {
    errors: ['name: un groupe porte déjà ce nom (id 0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20)'],
  });
const InvalidGroup = () =>
  ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['name: ne doit pas dépasser 100 caractères'] });

@ApiTags('Groupe')
@Controller('group')
export class GroupController {
  constructor(private readonly groups: GroupService) {}

  @Post()
  @ApiOperation({ summary: 'Create a group' })
  @RespondWith(201, 'succès', GroupDto)
  @InvalidGroup()
  @NameTaken()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateGroupDto): Promise<GroupDto> {
    return this.groups.create(principal, body);
  }

  @Get()
  @ApiOperation({ summary: "List the account's groups, newest first", description: '`q` matches the start of the name, case ignored.' })
  @RespondWithList(GroupDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['cursor: curseur invalide'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: GroupQueryDto): Promise<ListPage<GroupDto>> {
    return this.groups.list(principal.accountId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read one group' })
  @GroupIdParam()
  @RespondWith(200, 'succès', GroupDto)
  @GroupNotFound()
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<GroupDto> {
    return this.groups.findOne(principal.accountId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename or redescribe a group', description: 'Give `name`, `description` or both.' })
  @GroupIdParam()
  @RespondWith(200, 'succès', GroupDto)
  @InvalidGroup()
  @GroupNotFound()
  @NameTaken()
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateGroupDto): Promise<GroupDto> {
    return this.groups.update(principal.accountId, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete one group and its memberships (its contacts stay)' })
  @GroupIdParam()
  @RespondWith(200, 'success')
  @GroupNotFound()
  @TakesNoBody()
  delete(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.groups.delete(principal.accountId, id);
  }
}
