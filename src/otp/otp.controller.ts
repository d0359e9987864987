import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiFailure, ApiInsufficientBalance } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { InternalErrorMessage } from '../common/errors/internal-error-message.decorator.js';
import type { ListPage } from '../common/list/page.js';
import { RespondWithList } from '../common/list/respond-with-list.decorator.js';
import { ApiIdempotencyKey, IdempotencyKey } from '../idempotency/idempotency-key.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { OtpSendResultDto } from './dto/otp-send-result.dto.js';
import { OtpQueryDto, OtpStatusDto } from './dto/otp-status.dto.js';
import { OtpVerificationDto } from './dto/otp-verification.dto.js';
import { SendOtpDto } from './dto/send-otp.dto.js';
import { VerifyOtpDto } from './dto/verify-otp.dto.js';
import { OTP_NOT_FOUND, OtpStatusService } from './otp-status.service.js';
import { SendOtp } from './send-otp.usecase.js';
import { CODE_INVALID, VerifyOtp } from './verify-otp.usecase.js';

@ApiTags('Otp')
@Controller('otp')
export class OtpController {
  constructor(
    private readonly sendOtp: SendOtp,
    private readonly verifyOtp: VerifyOtp,
    private readonly statuses: OtpStatusService,
  ) {}

  @Post('send')
  @ApiOperation({
    summary: 'Send a one-time password by SMS or e-mail',
    description:
      'Refusals come in this order: 400 (validation), 429 (per-recipient send limit), 402 (balance). ' +
      'A new code supersedes every earlier pending code for the same recipient.\n\n' +
      'With a sandbox key (`mk_test_…`) nothing is billed or handed to a provider, and the SMS record shows ' +
      '`provider: "sandbox"`. Sandbox SMS to `+2250700000001` become `delivered`, to `+2250700000002` `undelivered`, ' +
      'to `+2250700000003` `failed`; any other recipient stays `sent`. Rate limits apply as with a live key.',
  })
  @RespondWith(200, 'succès', OtpSendResultDto)
  @ApiFailure(400, 'erreur_de_validation', 'One text per invalid field, `<field>: <problem>`', {
    errors: ['otp_length: doit être compris entre 4 et 6', 'to: numéro de téléphone invalide (format international attendu, par exemple +2250707070707)'],
  })
  @ApiInsufficientBalance('The balance does not cover the cost; nothing was stored or sent', { costs: 2.5, balance: 1.75 })
  @ApiFailure(429, 'trop_de_requetes', 'Too many sends to this recipient in the window; see `Retry-After`', {
    errors: ["to: trop d'envois vers ce destinataire, réessayez dans 540 s"],
  })
  @ApiIdempotencyKey()
  @InternalErrorMessage('erreur_application')
  send(
    @CurrentPrincipal() principal: Principal,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Body() body: SendOtpDto,
  ): Promise<OtpSendResultDto> {
    return this.sendOtp.execute(principal, body, idempotency);
  }

  @Post('verify')
  @ApiOperation({
    summary: 'Check a one-time password',
    description:
      'Checks the latest code sent to the recipient. A missing, used or superseded code is answered like a wrong one.',
  })
  @RespondWith(200, 'success', OtpVerificationDto)
  @ApiFailure(400, 'erreur_de_validation', 'Invalid body, or no valid code matches', { errors: [CODE_INVALID] })
  @ApiFailure(410, 'code_otp_expir', 'The code has expired', { errors: ['code: le code OTP a expiré'] })
  @ApiFailure(429, 'trop_de_tentatives', 'Too many wrong codes for this OTP, or too many failures for this recipient; see `Retry-After`', {
    errors: ['code: trop de codes erronés pour ce code OTP, demandez-en un nouveau'],
  })
  @InternalErrorMessage('erreur_interne')
  verify(@CurrentPrincipal() principal: Principal, @Body() body: VerifyOtpDto): Promise<OtpVerificationDto> {
    return this.verifyOtp.execute(principal, body);
  }

  @Get()
  @ApiOperation({
    summary: "List the key's OTPs, newest first, with filters",
    description:
      'Only the OTPs of the calling key\'s mode (live or sandbox), e-mail ones included; every filter given must hold. ' +
      '`state` is decided now, as a verification would decide it. Never the code.',
  })
  @RespondWithList(OtpStatusDto)
  @ApiFailure(400, 'erreur_de_validation', 'A bad filter, limit or cursor', { errors: ['state: doit valoir active, verified, expired, superseded ou locked'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: OtpQueryDto): Promise<ListPage<OtpStatusDto>> {
    return this.statuses.list(principal, query);
  }

  @Get(':uniq_id')
  @ApiOperation({
    summary: 'Read one OTP: its state and its delivery, never its code',
    description: 'E-mail OTPs too: `delivery_status` says whether the e-mail was handed over. An SMS OTP\'s message is also `GET /v1/sms/out/{sms_uniq_id}`.',
  })
  @ApiParam({ name: 'uniq_id', format: 'uuid', description: 'The `uniq_id` of the send', example: '0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10' })
  @RespondWith(200, 'succès', OtpStatusDto)
  @ApiFailure(404, 'Non trouvé', "No OTP with this uniq_id in the caller's account and key mode (also for a malformed id)", { errors: [OTP_NOT_FOUND] })
  findOne(@CurrentPrincipal() principal: Principal, @Param('uniq_id') uniqId: string): Promise<OtpStatusDto> {
    return this.statuses.findOne(principal, uniqId);
  }
}
