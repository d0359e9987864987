import { Body, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { ACCOUNT_NOT_FOUND } from '../admin/admin-accounts.service.js';
import { AdminController } from '../auth/admin-controller.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';
import { AdminFraud } from './admin-fraud.service.js';
import { AdminAddListEntryDto, AdminAttemptQueryDto, AdminBlockQueryDto, AdminListEntryQueryDto, AdminModeQueryDto } from './dto/admin-fraud.dto.js';
import { FraudAttemptDto } from './dto/fraud-attempt.dto.js';
import { FraudBlockDto } from './dto/fraud-block.dto.js';
import { FraudListEntryDto } from './dto/fraud-list.dto.js';
import { FraudPolicyDto, UpdateFraudPolicyDto } from './dto/fraud-policy.dto.js';
import { BlockIdParam, EntryIdParam, FraudDocs } from './fraud.controller.js';
import { BLOCK_NOT_ACTIVE, BLOCK_NOT_FOUND, ENTRY_NOT_FOUND } from './fraud.service.js';

const ACROSS = "Every account's, in both modes, unless `account_id` or `sandbox` narrows it.";
const AccountIdParam = () => ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the account', example: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01' });
const AccountNotFound = () => ApiFailure(404, ACCOUNT_NOT_FOUND, 'No such account (also for a malformed id)');

/** The fraud guard's settings of every account, for the operator: the account routes of `/v1/fraud`, across accounts. */
@AdminController('fraud')
export class AdminFraudController {
  constructor(private readonly fraud: AdminFraud) {}

  @Get('accounts/:id/policy')
  @ApiOperation({ summary: "Read an account's OTP fraud policy", description: `${FraudDocs.policy} \`sandbox=true\`: the policy of its sandbox keys.` })
  @AccountIdParam()
  @RespondWith(200, 'succès', FraudPolicyDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad `sandbox`', { errors: ['sandbox: doit valoir true ou false'] })
  @AccountNotFound()
  policy(@Param('id') id: string, @Query() query: AdminModeQueryDto): Promise<FraudPolicyDto> {
    return this.fraud.policy(id, query);
  }

  @Put('accounts/:id/policy')
  @ApiOperation({ summary: "Change an account's OTP fraud policy", description: `${FraudDocs.updatePolicy} \`sandbox=true\`: the policy of its sandbox keys.` })
  @AccountIdParam()
  @RespondWith(200, 'succès', FraudPolicyDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['thresholds.ip_per_hour: doit être compris entre 1 et 100000'] })
  @AccountNotFound()
  updatePolicy(@Param('id') id: string, @Query() query: AdminModeQueryDto, @Body() body: UpdateFraudPolicyDto): Promise<FraudPolicyDto> {
    return this.fraud.updatePolicy(id, query, body);
  }

  @Get('list')
  @ApiOperation({ summary: "List the accounts' safe and deny lists, newest first", description: `Entries in force only. ${ACROSS}` })
  @RespondWithList(FraudListEntryDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['account_id: doit être un identifiant (UUID)'] })
  listEntries(@Query() query: AdminListEntryQueryDto): Promise<ListPage<FraudListEntryDto>> {
    return this.fraud.listEntries(query);
  }

  @Post('list')
  @ApiOperation({ summary: "Put a value on an account's safe or deny list", description: `${FraudDocs.addEntry} \`sandbox: true\`: the lists of its sandbox keys.` })
  @RespondWith(201, 'succès', FraudListEntryDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['account_id: est obligatoire'] })
  @AccountNotFound()
  @ApiFailure(409, 'deja_existant', 'The same entry is on the list', { errors: ['value: +99899394 est déjà sur la liste block (prefix)'] })
  addEntry(@Body() body: AdminAddListEntryDto): Promise<FraudListEntryDto> {
    return this.fraud.addEntry(body);
  }

  @Delete('list/:id')
  @ApiOperation({ summary: 'Take an entry off its list, in any account' })
  @EntryIdParam()
  @RespondWith(200, 'success')
  @ApiFailure(404, ENTRY_NOT_FOUND, 'No such entry in force (also for a malformed id)')
  @TakesNoBody()
  removeEntry(@Param('id') id: string): Promise<void> {
    return this.fraud.removeEntry(id);
  }

  @Get('blocks')
  @ApiOperation({ summary: "List the guard's temporary blocks, newest first", description: `${FraudDocs.blocks} ${ACROSS}` })
  @RespondWithList(FraudBlockDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['scope: doit valoir prefix ou country'] })
  listBlocks(@Query() query: AdminBlockQueryDto): Promise<ListPage<FraudBlockDto>> {
    return this.fraud.listBlocks(query);
  }

  @Delete('blocks/:id')
  @ApiOperation({ summary: 'Lift a block of any account (unblock)', description: FraudDocs.unblock })
  @BlockIdParam()
  @RespondWith(200, 'success')
  @ApiFailure(404, BLOCK_NOT_FOUND, 'No such block (also for a malformed id)')
  @ApiFailure(409, 'transition_invalide', 'The block is lifted or over already', { errors: [BLOCK_NOT_ACTIVE] })
  @TakesNoBody()
  unblock(@Param('id') id: string): Promise<void> {
    return this.fraud.unblock(id);
  }

  @Get('attempts')
  @ApiOperation({ summary: "List the guard's attempts, newest first, with filters", description: `${FraudDocs.attempts} ${ACROSS}` })
  @RespondWithList(FraudAttemptDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['mode: doit valoir blocked ou monitored'] })
  listAttempts(@Query() query: AdminAttemptQueryDto): Promise<ListPage<FraudAttemptDto>> {
    return this.fraud.listAttempts(query);
  }
}
