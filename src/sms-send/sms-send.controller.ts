import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure, ApiInsufficientBalance } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { BodyLimit } from '../common/http/body-parsers.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { SMS_NOT_FOUND } from '../sms/sms.service.js';
import { CancelSms } from './cancel-sms.usecase.js';
import { CancelResultDto, SendResultDto } from './dto/send-result.dto.js';
import { SendSmsDto } from './dto/send-sms.dto.js';
import { SendSms } from './send-sms.usecase.js';
import { TakesNoBody } from '../common/validation/takes-no-body.decorator.js';

@ApiTags('SMS')
@Controller('sms')
export class SmsSendController {
  constructor(
    private readonly sendSms: SendSms,
    private readonly cancelSms: CancelSms,
  ) {}

  @Post('send')
  @BodyLimit('bulk')
  @ApiOperation({
    summary: 'Send an SMS to numbers, contacts and groups, now or later',
    description:
      'Numbers, then contacts, then group members are normalised to E.164 and deduplicated (the first occurrence wins). ' +
      'Recipients refused one by one (`numero_invalide`, `destination_non_prise_en_charge`, `desinscrit`, `doublon`, `doublon_recent`) ' +
      'are listed in `rejected` and neither stored nor charged. The total is debited at once; refusals come in the order 400, 429, 402, ' +
      'and a refused request stores nothing. A `send_at` more than a minute ahead, or a `delivery_window` that is closed, makes the ' +
      'messages `scheduled` (debited now, refunded if cancelled). With a sandbox key nothing is billed or handed to a provider. ' +
      'The body may be up to `BULK_BODY_LIMIT_BYTES` (1 MiB).',
  })
  @RespondWith(200, 'succès', SendResultDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field; `to: aucun destinataire valide` with the first 20 refusals', {
    errors: ['sender: expéditeur non approuvé', 'send_at: doit être au plus dans 35 jours'],
  })
  @ApiInsufficientBalance('The balance does not cover the total; nothing was stored or sent', { costs: 250, balance: 12.5 })
  @ApiFailure(409, 'deja_existant', 'The account has a lot of this name already', { errors: ['lot: le lot relance-mars existe déjà'] })
  @ApiIdempotencyKey()
  send(
    @CurrentPrincipal() principal: Principal,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Body() body: SendSmsDto,
  ): Promise<SendResultDto> {
    return this.sendSms.execute(principal, body, idempotency);
  }

  @Post('out/:id/cancel')
  @ApiOperation({
    summary: 'Cancel a scheduled message, or every scheduled message of a lot',
    description: 'Cancelled messages are refunded once. A message already promoted for hand-over cannot be cancelled.',
  })
  @ApiParam({ name: 'id', description: 'The `uniq_id` of a message, or a `lot`', example: 'relance-mars' })
  @RespondWith(200, 'succès', CancelResultDto)
  @ApiFailure(404, 'Non trouvé', "No SMS with this uniq_id or lot in the caller's account", { errors: [SMS_NOT_FOUND] })
  @ApiFailure(409, 'transition_invalide', 'Nothing left to cancel: `status: message déjà annulé` when every message named is cancelled already, else `status: message déjà transmis`', {
    errors: ['status: message déjà transmis'],
  })
  @TakesNoBody()
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<CancelResultDto> {
    return this.cancelSms.execute(principal, id);
  }
}
