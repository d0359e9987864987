import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { SenderDto } from './dto/sender.dto.js';
import { CreateSenderDto, SenderQueryDto } from './dto/sender-input.dto.js';
import { SENDER_NOT_FOUND, SenderService } from './sender.service.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

const SenderIdParam = () => ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the sender', example: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03' });
const SenderNotFound = () => ApiFailure(404, SENDER_NOT_FOUND, "No such sender in the caller's account (also for a malformed id)");

@ApiTags('Expéditeur')
@Controller('sender')
export class SenderController {
  constructor(private readonly senders: SenderService) {}

  @Post()
  @ApiOperation({
    summary: 'Request a sender ID',
    description: 'The sender is `pending` until an operator approves or rejects it (`sender.approved` / `sender.rejected` events); only an approved sender sends.',
  })
  @RespondWith(201, 'succès', SenderDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['use_case: doit faire de 10 à 500 caractères'] })
  @ApiFailure(409, 'deja_existant', 'The account has a pending or approved sender of that name (case ignored)', {
    errors: ['name: un expéditeur de ce nom est déjà en attente ou approuvé (id 0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e03)'],
  })
  request(@CurrentPrincipal() principal: Principal, @Body() body: CreateSenderDto): Promise<SenderDto> {
    return this.senders.request(principal, body);
  }

  @Get()
  @ApiOperation({ summary: "List the account's senders, newest first" })
  @RespondWithList(SenderDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['status: doit valoir pending, approved ou rejected'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: SenderQueryDto): Promise<ListPage<SenderDto>> {
    return this.senders.list(principal.accountId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read one sender' })
  @SenderIdParam()
  @RespondWith(200, 'succès', SenderDto)
  @SenderNotFound()
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SenderDto> {
    return this.senders.findOne(principal.accountId, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Withdraw a pending or rejected sender request' })
  @SenderIdParam()
  @RespondWith(200, 'success')
  @SenderNotFound()
  @ApiFailure(409, 'transition_invalide', 'The sender is approved', { errors: ['status: seul un expéditeur en attente ou refusé peut être retiré'] })
  @TakesNoBody()
  withdraw(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.senders.withdraw(principal.accountId, id);
  }

  @Post(':id/default')
  @ApiOperation({ summary: 'Make an approved sender the account default', description: 'Sends that name no sender use it.' })
  @SenderIdParam()
  @RespondWith(200, 'succès', SenderDto)
  @SenderNotFound()
  @ApiFailure(409, 'transition_invalide', 'The sender is not approved', { errors: ['status: seul un expéditeur approuvé peut être celui par défaut'] })
  @TakesNoBody()
  makeDefault(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SenderDto> {
    return this.senders.makeDefault(principal.accountId, id);
  }
}
