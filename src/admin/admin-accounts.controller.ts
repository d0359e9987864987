import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { AdminController } from '../auth/admin-controller.decorator.js';
import { LedgerEntryDto } from '../balance/dto/ledger-entry.dto.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { ACCOUNT_NOT_FOUND, AdminAccountsService } from './admin-accounts.service.js';
import { AdminAccountDto, AdminAccountQueryDto, CreditAccountDto } from './dto/admin-account.dto.js';

@AdminController('accounts')
export class AdminAccountsController {
  constructor(private readonly accounts: AdminAccountsService) {}

  @Get()
  @ApiOperation({ summary: 'List every account, newest first' })
  @RespondWithList(AdminAccountDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['q: doit faire de 1 à 100 caractères'] })
  list(@Query() query: AdminAccountQueryDto): Promise<ListPage<AdminAccountDto>> {
    return this.accounts.list(query);
  }

  @Post(':id/credit')
  @ApiOperation({
    summary: "Add to an account's balance",
    description:
      'Writes a `credit` row in the account\'s ledger (`GET /v1/balance/transactions`, reference type `admin`) and adds its amount to the balance, ' +
      'as `npm run cli -- account:credit` does; a balance brought back to its low-balance threshold re-arms `balance.low`. Answers the ledger row.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the account', example: '0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01' })
  @RespondWith(200, 'succès', LedgerEntryDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', {
    errors: ["amount: doit être un montant supérieur à 0 et d'au plus 1000000000, avec au plus 2 décimales"],
  })
  @ApiFailure(404, ACCOUNT_NOT_FOUND, 'No such account (also for a malformed id)')
  @ApiIdempotencyKey()
  credit(
    @Param('id') id: string,
    @Body() body: CreditAccountDto,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
  ): Promise<LedgerEntryDto> {
    return this.accounts.credit(id, body, idempotency);
  }
}
