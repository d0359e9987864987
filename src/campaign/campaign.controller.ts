import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure, ApiInsufficientBalance } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { CAMPAIGN_NOT_FOUND } from './campaign-status.js';
import { CampaignService } from './campaign.service.js';
import { CampaignDto } from './dto/campaign.dto.js';
import { CampaignQueryDto, CancelCampaignDto, CreateCampaignDto, LaunchCampaignDto, UpdateCampaignDto } from './dto/campaign-input.dto.js';
import { CancelCampaign } from './cancel-campaign.usecase.js';
import { LaunchCampaign } from './launch-campaign.usecase.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

export const CampaignIdParam = () =>
  ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the campaign', example: '0193a3c2-d1e2-7f30-8a4b-5c6d7e8f9a01' });
export const CampaignNotFound = () => ApiFailure(404, CAMPAIGN_NOT_FOUND, "No such campaign in the caller's account and key mode (also for a malformed id)");
const NotADraft = () => ApiFailure(409, 'transition_invalide', 'The campaign is no longer a draft', { errors: ['status: la campagne est déjà lancée'] });

@ApiTags('Campagne')
@Controller('campaign')
export class CampaignController {
  constructor(
    private readonly campaigns: CampaignService,
    private readonly launcher: LaunchCampaign,
    private readonly canceller: CancelCampaign,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a campaign draft', description: 'Nothing is sent or debited until `POST /campaign/{id}/launch`.' })
  @RespondWith(201, 'succès', CampaignDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['group_ids[0]: groupe inconnu'] })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateCampaignDto): Promise<CampaignDto> {
    return this.campaigns.create(principal, body);
  }

  @Get()
  @ApiOperation({ summary: "List the campaigns of the calling key's mode, newest first" })
  @RespondWithList(CampaignDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['status: doit valoir draft, scheduled, running, done ou cancelled'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CampaignQueryDto): Promise<ListPage<CampaignDto>> {
    return this.campaigns.list(principal, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a campaign with live counts' })
  @CampaignIdParam()
  @RespondWith(200, 'succès', CampaignDto)
  @CampaignNotFound()
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<CampaignDto> {
    return this.campaigns.findOne(principal, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Edit a draft', description: 'Any field of the creation, at least one; `null` clears `sender`, `send_at`, `delivery_window` and `webhook_url`.' })
  @CampaignIdParam()
  @RespondWith(200, 'succès', CampaignDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field', { errors: ['name: doit faire de 1 à 100 caractères'] })
  @CampaignNotFound()
  @NotADraft()
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateCampaignDto): Promise<CampaignDto> {
    return this.campaigns.update(principal, id, body);
  }

  @Post(':id/launch')
  @ApiOperation({
    summary: 'Launch a draft: freeze its audience, debit its cost, then schedule or start it',
    description: `In one transaction: the members of \`group_ids\` as they are now, minus those of \`exclude_group_ids\` and the opted-out numbers, each number once, are frozen as the campaign's recipients (at most \`CAMPAIGN_MAX_RECIPIENTS\`), each priced by its personalised text (with \`OPT_OUT_TEXT\` when \`append_opt_out\`), and the total is debited. Later group edits do not change the audience. The campaign is \`scheduled\` until \`send_at\`, else \`running\`; its messages are then written 500 at a time and listed with \`GET /sms/out?lot=\`.`,
  })
  @CampaignIdParam()
  @RespondWith(200, 'succès', CampaignDto)
  @ApiFailure(400, 'erreur_de_validation', 'Nobody left to send to, too many recipients, a sender not approved, a send_at too far', { errors: ['group_ids: aucun destinataire'] })
  @ApiInsufficientBalance('The balance does not cover the campaign; nothing is stored', { costs: 3000, balance: 120.5 })
  @CampaignNotFound()
  @NotADraft()
  @ApiIdempotencyKey()
  launch(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: LaunchCampaignDto,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
  ): Promise<CampaignDto> {
    return this.launcher.execute(principal, id, body, idempotency);
  }

  @Post(':id/cancel')
  @ApiOperation({
    summary: 'Cancel a campaign and refund what was not handed over',
    description: 'Allowed from `draft`, `scheduled` or `running`. Recipients not yet turned into messages and messages still `scheduled` are cancelled and refunded at once (one `refund` ledger row); messages already handed over keep their course.',
  })
  @CampaignIdParam()
  @RespondWith(200, 'succès', CampaignDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad reason', { errors: ['reason: ne doit pas dépasser 255 caractères'] })
  @CampaignNotFound()
  @ApiFailure(409, 'transition_invalide', 'The campaign is done or cancelled already', { errors: ['status: la campagne est terminée'] })
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: CancelCampaignDto): Promise<CampaignDto> {
    return this.canceller.execute(principal, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a draft' })
  @CampaignIdParam()
  @RespondWith(200, 'success')
  @CampaignNotFound()
  @NotADraft()
  @TakesNoBody()
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.campaigns.remove(principal, id);
  }
}
