import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { BodyLimit } from '../common/http/body-parsers.js';
import { ListQueryDto } from '../common/list/list-query.dto.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { GroupIdParam, GroupNotFound } from '../group/group.controller.js';
import { ContactDto } from './dto/contact.dto.js';
import { AddMembersDto, AddResultDto, RemovedDto, RemoveMembersDto } from './dto/group-members.dto.js';
import { GroupMembersService } from './group-members.service.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

@ApiTags('Groupe')
@Controller('group/:id/contacts')
export class GroupContactsController {
  constructor(private readonly members: GroupMembersService) {}

  @Get()
  @ApiOperation({ summary: 'List the members of a group, newest contact first' })
  @GroupIdParam()
  @RespondWithList(ContactDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad limit or cursor', { errors: ['cursor: curseur invalide'] })
  @GroupNotFound()
  list(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Query() query: ListQueryDto): Promise<ListPage<ContactDto>> {
    return this.members.list(principal, id, query);
  }

  @Post()
  @BodyLimit('bulk')
  @ApiOperation({
    summary: 'Add members by contact id and/or phone',
    description: 'A phone the account has no contact for becomes a new contact. Unknown ids and invalid phones are reported in `rejected`; the rest are added.',
  })
  @GroupIdParam()
  @RespondWith(200, 'succès', AddResultDto)
  @ApiFailure(400, 'erreur_de_validation', 'Invalid body', { errors: ['phones: doit être une liste de 1 à 1000 chaînes de caractères'] })
  @GroupNotFound()
  add(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: AddMembersDto): Promise<AddResultDto> {
    return this.members.add(principal, id, body);
  }

  @Post('remove')
  @ApiOperation({ summary: 'Remove up to 1,000 members (the contacts stay)' })
  @GroupIdParam()
  @RespondWith(200, 'succès', RemovedDto)
  @ApiFailure(400, 'erreur_de_validation', 'Invalid body', { errors: ['contact_ids: doit être une liste de 1 à 1000 identifiants (UUID)'] })
  @GroupNotFound()
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: RemoveMembersDto): Promise<RemovedDto> {
    return this.members.remove(principal.accountId, id, body.contact_ids);
  }

  @Delete(':contact_id')
  @ApiOperation({ summary: 'Remove one member (the contact stays)' })
  @GroupIdParam()
  @ApiParam({ name: 'contact_id', format: 'uuid', description: 'Identifier of the contact' })
  @RespondWith(200, 'success')
  @ApiFailure(404, 'Groupe non trouvé', 'No such group in the account; or `Contact non trouvé`: the contact is not a member')
  @TakesNoBody()
  removeOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('contact_id') contactId: string): Promise<void> {
    return this.members.removeOne(principal.accountId, id, contactId);
  }
}
