import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure, ApiInsufficientBalance } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { HlrBatchDto, HlrLookupDto, HlrQueryDto } from './dto/hlr-lookup.dto.js';
import { SubmitHlrDto } from './dto/submit-hlr.dto.js';
import { HLR_NOT_FOUND, HlrService } from './hlr.service.js';
import { SubmitHlr } from './submit-hlr.usecase.js';

@ApiTags('HLR Lookup')
@Controller('hlr')
export class HlrController {
  constructor(
    private readonly submitHlr: SubmitHlr,
    private readonly hlr: HlrService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Look up 1 to 1,000 numbers on their home network (HLR), asynchronously',
    description:
      'Each valid number becomes a `pending` lookup charged from its country\'s HLR price; invalid and repeated numbers are listed in ' +
      '`rejected`, neither stored nor charged. The total is debited at once (402 stores nothing). Answers arrive as `hlr.completed` ' +
      'events and through `GET /v1/hlr/{id}`; a lookup that fails (vendor error or timeout) is refunded once, while an answer such as ' +
      '`absent` or `bad_number` is a result and stays charged. A sandbox key pays nothing and reaches no vendor: a lookup of ' +
      '`+2250700000001` is `reachable`, of `+2250700000002` `absent`, of `+2250700000003` `failed` (as their sandbox SMS end), ' +
      'of any other number answered from the numbering plan.',
  })
  @RespondWith(200, 'succès', HlrBatchDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field; `numbers: aucun numéro valide` with the first 20 refusals', {
    errors: ['numbers: aucun numéro valide', '+22507: numero_invalide'],
  })
  @ApiInsufficientBalance('The balance does not cover the total; nothing was stored', { costs: 20, balance: 12.5 })
  @ApiIdempotencyKey()
  submit(
    @CurrentPrincipal() principal: Principal,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Body() body: SubmitHlrDto,
  ): Promise<HlrBatchDto> {
    return this.submitHlr.execute(principal, body, idempotency);
  }

  @Get()
  @ApiOperation({ summary: "List the account's lookups, newest first", description: 'A key lists the lookups of its own mode (live or sandbox).' })
  @RespondWithList(HlrLookupDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['status: doit valoir pending, completed ou failed'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: HlrQueryDto): Promise<ListPage<HlrLookupDto>> {
    return this.hlr.list(principal, query);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Read one lookup by its id, or the first one of a lot',
    description: 'A key reads the lookups of its own mode (live or sandbox).',
  })
  @ApiParam({ name: 'id', description: 'The `id` of the lookup, or its `lot`', example: '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10' })
  @RespondWith(200, 'succès', HlrLookupDto)
  @ApiFailure(404, 'Non trouvé', "No lookup with this id or lot in the caller's account and mode", { errors: [HLR_NOT_FOUND] })
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<HlrLookupDto> {
    return this.hlr.findOne(principal, id);
  }
}
