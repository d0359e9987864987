import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { BodyLimit } from '../common/http/body-parsers.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { AddOptOutsDto, AddOptOutsResultDto, OptOutDto, OptOutQueryDto } from './dto/opt-out.dto.js';
import { NOT_LISTED, OptOutService, RECIPIENT_ONLY } from './opt-out.service.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

const MODE = 'A sandbox (`mk_test_`) key has a list of its own, which applies to sandbox traffic only.';

@ApiTags('Contact')
@Controller('opt-out')
export class OptOutController {
  constructor(private readonly optOuts: OptOutService) {}

  @Post()
  @BodyLimit('bulk')
  @ApiOperation({
    summary: 'Put up to 1,000 numbers on the opt-out list',
    description:
      'They receive no ordinary SMS any more (OTPs are exempt by default). Every number must be valid, or none is listed. ' +
      `Entries are of source \`api\`. The body may be up to \`BULK_BODY_LIMIT_BYTES\` (1 MiB). ${MODE}`,
  })
  @RespondWith(200, 'succès', AddOptOutsResultDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field or number', { errors: ['phones[3]: numéro de téléphone invalide'] })
  add(@CurrentPrincipal() principal: Principal, @Body() body: AddOptOutsDto): Promise<AddOptOutsResultDto> {
    return this.optOuts.add(principal, body);
  }

  @Get()
  @ApiOperation({ summary: "List the account's opt-out list, newest first", description: MODE })
  @RespondWithList(OptOutDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['source: doit valoir sms_keyword, api, import, link ou admin'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: OptOutQueryDto): Promise<ListPage<OptOutDto>> {
    return this.optOuts.list(principal, query);
  }

  @Delete(':phone')
  @ApiOperation({
    summary: 'Take a number off the opt-out list (re-subscribe it)',
    description:
      'Only `api`, `import` and `admin` entries: a number that opted out itself (`sms_keyword`, `link`) can be re-subscribed only by its recipient (START). ' +
      MODE,
  })
  @ApiParam({ name: 'phone', description: 'The number in international form; its `+` URL-encoded (`%2B`) or left out', example: '+2250707070707' })
  @RespondWith(200, 'success')
  @ApiFailure(404, 'Non trouvé', 'The number is not on the list (also for a malformed number)', { errors: [NOT_LISTED] })
  @ApiFailure(409, 'transition_invalide', 'The number opted out itself: only its recipient can undo it', { errors: [RECIPIENT_ONLY] })
  @TakesNoBody()
  remove(@CurrentPrincipal() principal: Principal, @Param('phone') phone: string): Promise<void> {
    return this.optOuts.remove({ accountId: principal.accountId, sandbox: principal.test }, phone, 'api');
  }
}
