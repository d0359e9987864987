import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import type { Principal } from '../common/principal.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';
import { AttemptQueryDto, FraudAttemptDto } from './dto/fraud-attempt.dto.js';
import { BlockQueryDto, FraudBlockDto } from './dto/fraud-block.dto.js';
import { AddListEntryDto, FraudListEntryDto, ListEntryQueryDto } from './dto/fraud-list.dto.js';
import { FraudPolicyDto, UpdateFraudPolicyDto } from './dto/fraud-policy.dto.js';
import { BLOCK_NOT_ACTIVE, BLOCK_NOT_FOUND, ENTRY_NOT_FOUND, FraudService } from './fraud.service.js';

const MODE = 'A sandbox (`mk_test_`) key has settings of its own, which apply to sandbox sends only.';
const scopeOf = (principal: Principal) => ({ accountId: principal.accountId, sandbox: principal.test });

/** The documentation the account's and the operator's fraud routes share. */
export const FraudDocs = {
  policy: 'Modes per group of signals (`enforce` refuses, `monitor` lets through and records, `off`), the country policy, the number types and the thresholds.',
  updatePolicy:
    'Every key is optional, inside `modes`, `number_types` and `thresholds` too: a key left out keeps its value. `countries` replaces the country policy ' +
    '(`{allow: [...]}` or `{deny: [...]}`); `countries: {}` removes it. Applies at once on this instance, within `FRAUD_CACHE_REFRESH_MS` (5 s) on the others.',
  addEntry:
    '`block` (the deny list) takes a phone, a prefix, a country, an IP address or CIDR range, or a user ref; `allow` (the safe list) a phone or a user ref, ' +
    'whose sends skip every signal but the per-recipient limit. An entry with `expires_at` lapses then.',
  blocks: 'Temporary blocks of a prefix (too many distinct numbers in an hour: 1 h, doubled on each repeat up to 24 h) or of a country or prefix (low conversion: 6 h).',
  unblock: 'Sends to the prefix or country go through again at once; a later block of it starts again at 1 h.',
  attempts: 'Every send the guard refused (`blocked`) or let through and recorded (`monitored`), newest first, kept 30 days.',
};

export const EntryIdParam = () => ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the list entry', example: '0193a3c2-b4c5-7d6e-8f90-1a2b3c4d5e6f' });
export const BlockIdParam = () => ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the block', example: '0193a3c2-c1d2-7e3f-8a4b-5c6d7e8f9a0b' });

@ApiTags('Fraude')
@Controller('fraud')
export class FraudController {
  constructor(private readonly fraud: FraudService) {}

  @Get('policy')
  @ApiOperation({ summary: "Read the account's OTP fraud policy", description: `${FraudDocs.policy} ${MODE}` })
  @RespondWith(200, 'succès', FraudPolicyDto)
  policy(@CurrentPrincipal() principal: Principal): Promise<FraudPolicyDto> {
    return this.fraud.policy(scopeOf(principal));
  }

  @Put('policy')
  @ApiOperation({ summary: "Change the account's OTP fraud policy", description: `${FraudDocs.updatePolicy} ${MODE}` })
  @RespondWith(200, 'succès', FraudPolicyDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['thresholds.ip_per_hour: doit être compris entre 1 et 100000'] })
  updatePolicy(@CurrentPrincipal() principal: Principal, @Body() body: UpdateFraudPolicyDto): Promise<FraudPolicyDto> {
    return this.fraud.updatePolicy(scopeOf(principal), body);
  }

  @Get('list')
  @ApiOperation({ summary: 'List the safe and deny lists, newest first', description: `Entries in force only. ${MODE}` })
  @RespondWithList(FraudListEntryDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['list: doit valoir allow ou block'] })
  listEntries(@CurrentPrincipal() principal: Principal, @Query() query: ListEntryQueryDto): Promise<ListPage<FraudListEntryDto>> {
    return this.fraud.listEntries(scopeOf(principal), query);
  }

  @Post('list')
  @ApiOperation({ summary: 'Put a value on the safe or the deny list', description: `${FraudDocs.addEntry} ${MODE}` })
  @RespondWith(201, 'succès', FraudListEntryDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['value: préfixe invalide (+ suivi de 1 à 14 chiffres)'] })
  @ApiFailure(409, 'deja_existant', 'The same entry is on the list', { errors: ['value: +99899394 est déjà sur la liste block (prefix)'] })
  addEntry(@CurrentPrincipal() principal: Principal, @Body() body: AddListEntryDto): Promise<FraudListEntryDto> {
    return this.fraud.addEntry(scopeOf(principal), body, principal.userId);
  }

  @Delete('list/:id')
  @ApiOperation({ summary: 'Take an entry off its list', description: MODE })
  @EntryIdParam()
  @RespondWith(200, 'success')
  @ApiFailure(404, ENTRY_NOT_FOUND, 'No such entry in force (also for a malformed id)')
  @TakesNoBody()
  removeEntry(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.fraud.removeEntry(scopeOf(principal), id);
  }

  @Get('blocks')
  @ApiOperation({ summary: "List the guard's temporary blocks, newest first", description: `${FraudDocs.blocks} ${MODE}` })
  @RespondWithList(FraudBlockDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['scope: doit valoir prefix ou country'] })
  listBlocks(@CurrentPrincipal() principal: Principal, @Query() query: BlockQueryDto): Promise<ListPage<FraudBlockDto>> {
    return this.fraud.listBlocks(scopeOf(principal), query);
  }

  @Delete('blocks/:id')
  @ApiOperation({ summary: 'Lift a block (unblock)', description: `${FraudDocs.unblock} ${MODE}` })
  @BlockIdParam()
  @RespondWith(200, 'success')
  @ApiFailure(404, BLOCK_NOT_FOUND, 'No such block (also for a malformed id)')
  @ApiFailure(409, 'transition_invalide', 'The block is lifted or over already', { errors: [BLOCK_NOT_ACTIVE] })
  @TakesNoBody()
  unblock(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.fraud.unblock(scopeOf(principal), id);
  }

  @Get('attempts')
  @ApiOperation({ summary: "List the guard's attempts, newest first, with filters", description: `${FraudDocs.attempts} ${MODE}` })
  @RespondWithList(FraudAttemptDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['mode: doit valoir blocked ou monitored'] })
  listAttempts(@CurrentPrincipal() principal: Principal, @Query() query: AttemptQueryDto): Promise<ListPage<FraudAttemptDto>> {
    return this.fraud.listAttempts(scopeOf(principal), query);
  }
}
