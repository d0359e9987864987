import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { BillingService, type Quote } from '../billing/billing.service.js';
import { Clock } from '../common/clock.js';
import { addSeconds, toUnixSeconds } from '../common/date-format.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId, newLot } from '../common/ids.js';
import { parseEmail, parsePhone } from '../common/recipient.js';
import { optOutConfig, type OptOutConfig } from '../config/opt-out.config.js';
import { otpConfig, type OtpConfig } from '../config/otp.config.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import type { Sql } from '../database/sql.js';
import { DeliveryQueue } from '../delivery/delivery-queue.js';
import { FraudCheck, FraudRefusal } from '../fraud/fraud-check.js';
import { FraudGuard } from '../fraud/fraud-guard.service.js';
import type { VelocityRow } from '../fraud/velocity-counts.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { OptOutRepository } from '../opt-out/opt-out.repository.js';
import { SmsDestinations } from '../routing/sms-destinations.service.js';
import { SenderRepository } from '../sender/sender.repository.js';
import { ApprovedSenders } from '../sending/approved-senders.service.js';
import { ChargedSend, type Charge, type ChargedUnit } from '../sending/charged-send.service.js';
import { MessageOutRepository } from '../sms/message-out.repository.js';
import type { OtpSendResultDto } from './dto/otp-send-result.dto.js';
import { DEFAULT_OTP_LENGTH, OTP_EXPIRY_SECONDS, OTP_PLACEHOLDER } from './dto/otp-rules.js';
import type { SendOtpDto } from './dto/send-otp.dto.js';
import { generateCode, hashCode } from './otp-code.js';
import { OtpRepository } from './otp.repository.js';

const MASK = '******';
const OTP_OPTED_OUT = 'destinataire désinscrit (STOP) : les codes ne lui sont pas envoyés';

/** A send request with its defaults applied and its recipient normalised. */
interface SendRequest {
  channel: 'SMS' | 'EMAIL';
  recipient: string;
  /** Calling code of an SMS destination; `*` prices an e-mail. */
  dialCode: string;
  country: string | null;
  senderName: string | undefined;
  message: string;
  otpType: 'numeric' | 'alphanumeric';
  otpLength: number;
  expirySeconds: number;
  useLocalNumber: boolean;
  applicationName: string | null;
  language: 'fr' | 'en' | 'es' | 'pt';
  clientIp: string | null;
  userRef: string | null;
}

/** The code of one send and what is answered, drawn once whatever the attempts of its unit of work. */
interface Issue {
  uniqId: string;
  code: string;
  expiresAt: Date;
  lot: string;
  now: Date;
  answer: OtpSendResultDto;
}

/**
 * POST /v1/otp/send, a charged send (ChargedSend): resolve the sender and the
 * price, pass the fraud guard's signals of the cached settings, lock the
 * recipient (making this OTP its latest), read the send limit and the guard's
 * velocity counts in one statement, store the OTP (its code only as an HMAC)
 * and its SMS record, supersede the previous code and enqueue delivery; the
 * debit comes last. Refusals come in the order 400, 403 (the guard, SPEC-3
 * §3), 429, 402, and leave nothing behind but the guard's attempt.
 */
@Injectable()
export class SendOtp {
  constructor(
    private readonly charged: ChargedSend,
    private readonly senders: ApprovedSenders,
    private readonly otps: OtpRepository,
    private readonly messages: MessageOutRepository,
    private readonly localNumbers: SenderRepository,
    private readonly billing: BillingService,
    private readonly delivery: DeliveryQueue,
    private readonly optOuts: OptOutRepository,
    private readonly destinations: SmsDestinations,
    private readonly fraud: FraudGuard,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
    @Inject(optOutConfig.KEY) private readonly optOut: OptOutConfig,
    @Inject(secretsConfig.KEY) private readonly secrets: SecretsConfig,
  ) {}

  /**
   * With an Idempotency-Key, once per key: a retry gets the first answer. A
   * send the fraud guard refuses is recorded as its attempt and answered 403,
   * which is not kept for a retry.
   */
  async execute(principal: Principal, dto: SendOtpDto, idempotency?: IdempotentRequest): Promise<OtpSendResultDto> {
    let fraud: FraudCheck | undefined;
    try {
      return await this.charged.run(
        principal.accountId,
        idempotency,
        async () => {
          const prepared = await this.prepare(principal, dto);
          fraud = prepared.fraud;
          return prepared.unit;
        },
        { urgent: true },
      );
    } catch (error) {
      fraud?.abandoned();
      if (error instanceof FraudRefusal) throw await this.fraud.refuse(error, this.clock.now());
      throw error;
    }
  }

  /** The request read, the guard's check begun, its code drawn and its answer made; then the unit that writes the send. */
  private async prepare(principal: Principal, dto: SendOtpDto): Promise<{ fraud: FraudCheck; unit: ChargedUnit<OtpSendResultDto> }> {
    const request = toSendRequest(dto);
    const now = this.clock.now();
    const fraud = await this.fraud.check({ accountId: principal.accountId, sandbox: principal.test }, request, now);
    const uniqId = newId(now);
    const code = generateCode(request.otpType, request.otpLength);
    const expiresAt = addSeconds(now, request.expirySeconds);
    const issue: Issue = { uniqId, code, expiresAt, lot: newLot(), now, answer: { uniq_id: uniqId, code, expires_at: toUnixSeconds(expiresAt) } };
    return { fraud, unit: (sql) => this.write(sql, principal, request, issue, fraud) };
  }

  private async write(sql: Sql, principal: Principal, request: SendRequest, issue: Issue, fraud: FraudCheck): Promise<Charge<OtpSendResultDto>> {
    const { uniqId, code, expiresAt, lot, now } = issue;
    const sender = await this.senderFor(sql, principal.accountId, request);
    const text = request.message.split(OTP_PLACEHOLDER).join(code);
    const quote = await this.billing.quote(sql, request.channel, request.dialCode, text);
    if (!quote || (request.channel === 'SMS' && (await this.destinations.unroutable(sql, principal.accountId, 'otp', [request.recipient])).size > 0)) {
      throw ApiError.invalidField('to', 'destination non prise en charge');
    }
    if (request.channel === 'SMS' && this.optOut.blocksOtp && (await this.optOuts.listed(sql, principal.accountId, principal.test, [request.recipient])).size > 0) {
      throw ApiError.invalidField('to', OTP_OPTED_OUT);
    }
    fraud.refuseIfBlocked();

    await this.otps.claimRecipient(sql, principal.accountId, request.recipient, uniqId, now);
    await fraud.beginVelocityCounts(sql, now);
    const aliveSince = addSeconds(now, -OTP_EXPIRY_SECONDS.max);
    const earlierCodes = await this.enforceSendLimit(sql, principal.accountId, request.recipient, now, aliveSince, fraud);
    await this.otps.insert(sql, {
      uniqId,
      accountId: principal.accountId,
      recipient: request.recipient,
      channel: request.channel,
      codeHash: hashCode(this.secrets.otpSecret, uniqId, code),
      expiresAt,
      applicationName: request.applicationName,
      language: request.language,
      lot,
      createdBy: principal.userId,
      test: principal.test,
      at: now,
      clientIp: fraud.subject.clientIp,
      userRef: fraud.subject.userRef,
      country: fraud.subject.country,
      prefix: fraud.subject.prefix,
    });
    await fraud.record(sql, uniqId, now);
    if (earlierCodes) await this.otps.supersedeOthers(sql, principal.accountId, request.recipient, uniqId, aliveSince);

    const amount = principal.test ? 0 : quote.amount;
    const delivery = { recordId: uniqId, accountId: principal.accountId, amount, test: principal.test, deliverBefore: expiresAt, at: now };
    if (request.channel === 'SMS') {
      const localNumber = request.useLocalNumber ? await this.localNumbers.findLocalNumber(sql, principal.accountId, request.dialCode) : null;
      await this.recordSms(sql, principal, request, { uniqId, lot, senderId: sender.id, localNumber, quote, amount, at: now });
      await this.delivery.enqueueSms(sql, { ...delivery, payload: { from: localNumber ?? sender.name, to: request.recipient, text, secrets: [code] } });
    } else {
      await this.delivery.enqueueEmail(sql, {
        ...delivery,
        payload: { to: request.recipient, fromName: sender.name, text, language: request.language, applicationName: request.applicationName, secrets: [code] },
      });
    }
    return {
      cost: amount,
      for: { type: 'otp', id: uniqId, lot, createdBy: principal.userId },
      at: now,
      answer: issue.answer,
      committed: () => {
        this.delivery.committed('priority');
        fraud.committed(now);
      },
    };
  }

  /** SMS: an approved sender (the account's default when none is given). E-mail: any display name. */
  private async senderFor(sql: Sql, accountId: string, request: SendRequest): Promise<{ id: string | null; name: string }> {
    if (request.channel === 'EMAIL' && request.senderName !== undefined) return { id: null, name: request.senderName };
    return this.senders.named(sql, accountId, request.senderName);
  }

  /**
   * Reads the pair's sends with the guard's velocity counts, which refuse the send first (403); refuses it over the
   * pair's limit (429); otherwise tells whether the pair has codes created after `aliveSince`.
   */
  private async enforceSendLimit(sql: Sql, accountId: string, recipient: string, now: Date, aliveSince: Date, fraud: FraudCheck): Promise<boolean> {
    const windowMs = this.config.sendWindowSeconds * 1000;
    const sent = await this.otps.recentSends<VelocityRow>(sql, accountId, recipient, new Date(now.getTime() - windowMs), aliveSince, (from) => fraud.rideAlong(sql, from));
    await fraud.judge(sql, sent.row, now);
    if (sent.count < this.config.maxSendsPerRecipient) return sent.anyAlive;
    const freedAt = (sent.oldest ?? now).getTime() + windowMs;
    const retryAfter = Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
    throw ApiError.tooManyRequests(`to: trop d'envois vers ce destinataire, réessayez dans ${retryAfter} s`, retryAfter);
  }

  private recordSms(
    sql: Sql,
    principal: Principal,
    request: SendRequest,
    sms: { uniqId: string; lot: string; senderId: string | null; localNumber: string | null; quote: Quote; amount: number; at: Date },
  ): Promise<void> {
    return this.messages.insert(sql, {
      uniqId: sms.uniqId,
      accountId: principal.accountId,
      messagePriceId: sms.quote.priceId,
      type: 'otp',
      lot: sms.lot,
      senderId: sms.senderId,
      recipient: request.recipient,
      country: request.country,
      message: request.message.split(OTP_PLACEHOLDER).join(MASK),
      segments: sms.quote.segments,
      encoding: sms.quote.encoding ?? 'GSM7',
      amount: sms.amount,
      createdBy: principal.userId,
      localNumber: sms.localNumber,
      language: request.language,
      test: principal.test,
      at: sms.at,
    });
  }
}

function toSendRequest(dto: SendOtpDto): SendRequest {
  const phone = dto.channel === 'SMS' ? parsePhone(dto.to) : null;
  const email = dto.channel === 'EMAIL' ? parseEmail(dto.to) : null;
  const recipient = phone?.e164 ?? email;
  if (recipient === null) throw ApiError.invalidField('to', 'destinataire invalide');
  return {
    channel: dto.channel,
    recipient,
    dialCode: phone?.dialCode ?? '*',
    country: phone?.country ?? null,
    senderName: dto.sender,
    message: dto.message,
    otpType: dto.otp_type ?? 'numeric',
    otpLength: dto.otp_length ?? DEFAULT_OTP_LENGTH,
    expirySeconds: dto.otp_expiry ?? OTP_EXPIRY_SECONDS.default,
    useLocalNumber: dto.use_local_number ?? false,
    applicationName: dto.application_name ?? null,
    language: dto.language ?? 'fr',
    clientIp: dto.client_ip ?? null,
    userRef: dto.user_ref ?? null,
  };
}
