import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { MessageInDto, MessageInQueryDto } from './dto/message-in.dto.js';
import { InboundSmsService } from './inbound-sms.service.js';

@ApiTags('SMS')
@Controller('sms/in')
export class InboundSmsController {
  constructor(private readonly inbound: InboundSmsService) {}

  @Get()
  @ApiOperation({
    summary: "List the SMS recipients wrote to the account's local numbers, newest first",
    description:
      'Each one was also sent as an `sms.received` webhook event. A message that is a keyword (STOP, START, HELP and their variants) has it in `keyword`; ' +
      'opt-out and opt-in keywords changed the opt-out list. Inbound traffic is live: a sandbox (`mk_test_`) key lists none.',
  })
  @RespondWithList(MessageInDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', {
    errors: ['keyword: doit valoir STOP, STOPALL, ARRET, ARRETER, DESABONNER, DESINSCRIRE, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, REVOKE, START, UNSTOP, YES, OUI, HELP, AIDE ou INFO'],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: MessageInQueryDto): Promise<ListPage<MessageInDto>> {
    return this.inbound.list(principal, query);
  }
}
