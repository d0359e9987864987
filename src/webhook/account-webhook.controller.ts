import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { UpdateWebhookDto, WebhookConfigDto, WebhookSecretDto } from './dto/webhook-config.dto.js';
import { WebhookSettingsService } from './webhook-settings.service.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

@ApiTags('Account')
@Controller('account/webhook')
export class AccountWebhookController {
  constructor(private readonly settings: WebhookSettingsService) {}

  @Get()
  @ApiOperation({
    summary: "Read the account's default webhook",
    description: 'Its URL, the event types it receives and, when it failed every attempt for 5 days, when it was disabled.',
  })
  @RespondWith(200, 'succès', WebhookConfigDto)
  get(@CurrentPrincipal() principal: Principal): Promise<WebhookConfigDto> {
    return this.settings.get(principal.accountId);
  }

  @Put()
  @ApiOperation({
    summary: "Set the account's default webhook",
    description:
      'The URL must be http(s), carry no credentials and resolve to public addresses only (checked now and before every attempt). ' +
      'A PUT enables a disabled webhook again. The first one also creates the signing secret, returned once in `secret`. ' +
      'Events are POSTed as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers); see the `SmsWebhookEventDto`, `SmsReceivedWebhookEventDto`, `ContactWebhookEventDto`, `ContactImportWebhookEventDto`, `HlrWebhookEventDto`, `SenderWebhookEventDto`, `BalanceWebhookEventDto` and `CampaignWebhookEventDto` schemas.',
  })
  @RespondWith(200, 'succès', WebhookConfigDto)
  @ApiFailure(400, 'erreur_de_validation', 'A field is invalid, or the URL is refused', {
    errors: ['url: adresse privée ou réservée refusée', "events[1]: type d'évènement inconnu"],
  })
  update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateWebhookDto): Promise<WebhookConfigDto> {
    return this.settings.update(principal.accountId, body);
  }

  @Post('secret')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'Returns the new secret once. For 24 hours every event carries two signatures, by the new secret and by the old one.',
  })
  @RespondWith(200, 'succès', WebhookSecretDto)
  @TakesNoBody()
  async rotateSecret(@CurrentPrincipal() principal: Principal): Promise<WebhookSecretDto> {
    return { secret: await this.settings.rotateSecret(principal.accountId) };
  }
}
