import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { AccountService } from './account.service.js';
import { AccountDto } from './dto/account.dto.js';

@ApiTags('Account')
@Controller('account')
export class AccountController {
  constructor(private readonly accounts: AccountService) {}

  @Get()
  @ApiOperation({ summary: "Read the caller's account, with its balance" })
  @RespondWith(200, 'OK', AccountDto)
  get(@CurrentPrincipal() principal: Principal): Promise<AccountDto> {
    return this.accounts.get(principal.accountId);
  }
}
