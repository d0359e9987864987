import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { WebhookResendDto } from '../webhook/dto/webhook-config.dto.js';
import { LotSummaryDto } from './dto/lot-summary.dto.js';
import { MessageOutQueryDto } from './dto/message-out-query.dto.js';
import { MessageOutDto } from './dto/message-out.dto.js';
import { RANGE_TOO_WIDE } from './message-filters.js';
import { LOT_NOT_FOUND, NO_WEBHOOK_EVENT, SMS_NOT_FOUND, SmsService, WEBHOOK_IN_FLIGHT } from './sms.service.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

@ApiTags('SMS')
@Controller('sms')
export class SmsController {
  constructor(private readonly sms: SmsService) {}

  @Get('out')
  @ApiOperation({
    summary: "List the key's outgoing SMS, newest first, with filters",
    description:
      'Only the messages of the calling key\'s mode (live or sandbox), created in `[created_from, created_to)`: by default the last 30 days, ' +
      'at most 366 days. Every filter given must hold. The cursor is bound to the filters it was made with.',
  })
  @RespondWithList(MessageOutDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor, or a range wider than 366 days', { errors: [RANGE_TOO_WIDE] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: MessageOutQueryDto): Promise<ListPage<MessageOutDto>> {
    return this.sms.list(principal, query);
  }

  @Get('lot/:lot')
  @ApiOperation({
    summary: 'The progress of a lot: its messages counted by status, and what it costs',
    description: "The lot's messages of the calling key's mode.",
  })
  @ApiParam({ name: 'lot', description: 'The `lot` of a send (given by the client, or the ULID the service chose)', example: 'relance-mars' })
  @RespondWith(200, 'succès', LotSummaryDto)
  @ApiFailure(404, 'Non trouvé', "No SMS of this lot in the caller's account and mode", { errors: [LOT_NOT_FOUND] })
  lotSummary(@CurrentPrincipal() principal: Principal, @Param('lot') lot: string): Promise<LotSummaryDto> {
    return this.sms.lotSummary(principal, lot);
  }

  @Get('out/:id')
  @ApiOperation({ summary: 'Read one outgoing SMS by its uniq_id, or the first one of a lot' })
  @ApiParam({ name: 'id', description: 'The `uniq_id` of the message, or its `lot`', example: '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10' })
  @RespondWith(200, 'succès', MessageOutDto)
  @ApiFailure(404, 'Non trouvé', "No SMS with this uniq_id or lot in the caller's account and key mode (live or sandbox)", {
    errors: [SMS_NOT_FOUND],
  })
  findOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<MessageOutDto> {
    return this.sms.findOne(principal, id);
  }

  @Post('out/:id/webhook/resend')
  @ApiOperation({
    summary: "Queue the message's latest webhook event again",
    description:
      'The event goes again, from its first attempt, to where it went (the message\'s `webhook_url`, else the account webhook), ' +
      'with the same `webhook-id`: receivers that deduplicate on it see it once.',
  })
  @ApiParam({ name: 'id', description: 'The `uniq_id` of the message', example: '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10' })
  @RespondWith(200, 'succès', WebhookResendDto)
  @ApiFailure(404, 'Non trouvé', "No SMS with this uniq_id in the caller's account and key mode", { errors: [SMS_NOT_FOUND] })
  @ApiFailure(409, 'transition_invalide', 'The message has no webhook event yet, or one of its attempts is being made', {
    errors: [NO_WEBHOOK_EVENT],
  })
  @TakesNoBody()
  resendWebhook(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookResendDto> {
    return this.sms.resendWebhook(principal, id);
  }
}
