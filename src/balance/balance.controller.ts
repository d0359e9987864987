import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { BalanceService } from './balance.service.js';
import { BalanceDto, SetBalanceAlertDto } from './dto/balance.dto.js';
import { LedgerEntryDto, LedgerQueryDto } from './dto/ledger-entry.dto.js';

const SANDBOX = 'A sandbox (`mk_test_`) key reads the same balance as a live key; its own traffic never debits it.';

@ApiTags('Solde')
@Controller('balance')
export class BalanceController {
  constructor(private readonly balances: BalanceService) {}

  @Get()
  @ApiOperation({ summary: "The account's balance, its currency and its low-balance threshold", description: SANDBOX })
  @RespondWith(200, 'succès', BalanceDto)
  get(@CurrentPrincipal() principal: Principal): Promise<BalanceDto> {
    return this.balances.get(principal);
  }

  @Get('transactions')
  @ApiOperation({
    summary: "The account's ledger, newest first",
    description:
      'Every change of the balance, append-only: the balance is the sum of the rows, and each row carries the balance it left. ' +
      `Filters combine with AND; a cursor is valid only with the filters it was made with. ${SANDBOX}`,
  })
  @RespondWithList(LedgerEntryDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['type: doit valoir opening, debit, refund, credit ou adjustment'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: LedgerQueryDto): Promise<ListPage<LedgerEntryDto>> {
    return this.balances.list(principal, query);
  }

  @Put('alert')
  @ApiOperation({
    summary: 'Set or remove the low-balance alert',
    description:
      'A `balance.low` event goes to the account webhook (when it subscribes to it) when a debit takes the balance from at or above the threshold to below it: ' +
      'once per crossing. It is armed again when a credit or a refund brings the balance back to or above the threshold, and when a threshold is set while the balance is at or above it.',
  })
  @RespondWith(200, 'succès', BalanceDto)
  @ApiFailure(400, 'erreur_de_validation', 'The threshold is missing or not an amount', {
    errors: ['threshold: doit être un montant entre 0 et 1000000000 avec au plus 2 décimales'],
  })
  setAlert(@CurrentPrincipal() principal: Principal, @Body() body: SetBalanceAlertDto): Promise<BalanceDto> {
    return this.balances.setAlert(principal, body.threshold);
  }
}
