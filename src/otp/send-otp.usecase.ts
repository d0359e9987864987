import { Inject, Injectable } from '@nestjs/common';
import { BillingService, type Quote } from '../billing/billing.service.js';
import { isOverdraft, LedgerRepository } from '../billing/ledger.repository.js';
import type { Principal } from '../auth/principal.js';
import { Clock } from '../common/clock.js';
import { addSeconds, toUnixSeconds } from '../common/date-format.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId, newLot } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import { optOutConfig, type OptOutConfig } from '../config/opt-out.config.js';
import { otpConfig, type OtpConfig } from '../config/otp.config.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import type { Sql } from '../database/sql.js';
import { Database } from '../database/database.js';
import { DeliveryQueue } from '../delivery/delivery-queue.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import { OptOutRepository } from '../opt-out/opt-out.repository.js';
import { MessageOutRepository } from '../sms/message-out.repository.js';
import { SenderDirectory } from '../sender/sender-directory.js';
import { SenderRepository } from '../sender/sender.repository.js';
import type { OtpSendResultDto } from './dto/otp-send-result.dto.js';
import { DEFAULT_OTP_LENGTH, OTP_PLACEHOLDER } from './dto/otp-rules.js';
import type { SendOtpDto } from './dto/send-otp.dto.js';
import { generateCode, hashCode } from './otp-code.js';
import { OtpRepository } from './otp.repository.js';
import { parseEmail, parsePhone } from '../common/recipient.js';

const DEFAULT_EXPIRY_SECONDS = 300;
const MAX_EXPIRY_SECONDS = 3600;
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
}

/**
 * POST /v1/otp/send. In one transaction: resolve the sender and the price,
 * lock the recipient (making this OTP its latest), apply the send limit, store the OTP (its code only as an
 * HMAC) and its SMS record, supersede the previous code, enqueue delivery,
 * keep the answer for its Idempotency-Key and, last, debit the balance, which the
 * database refuses to make negative. Refusals come in the order 400, 429, 402, and leave nothing behind.
 */
@Injectable()
export class SendOtp {
  constructor(
    private readonly database: Database,
    private readonly otps: OtpRepository,
    private readonly messages: MessageOutRepository,
    private readonly senders: SenderRepository,
    private readonly senderDirectory: SenderDirectory,
    private readonly billing: BillingService,
    private readonly ledger: LedgerRepository,
    private readonly delivery: DeliveryQueue,
    private readonly idempotency: Idempotency,
    private readonly optOuts: OptOutRepository,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
    @Inject(optOutConfig.KEY) private readonly optOut: OptOutConfig,
    @Inject(secretsConfig.KEY) private readonly secrets: SecretsConfig,
  ) {}

  /** With an Idempotency-Key, once per key: a retry gets the first answer. */
  execute(principal: Principal, dto: SendOtpDto, idempotency?: IdempotentRequest): Promise<OtpSendResultDto> {
    return this.idempotency.once(principal.accountId, idempotency, (scope) => this.send(principal, dto, scope));
  }

  private async send(principal: Principal, dto: SendOtpDto, idempotency?: IdempotencyScope): Promise<OtpSendResultDto> {
    const request = toSendRequest(dto);
    const now = this.clock.now();
    const uniqId = newId(now);
    const code = generateCode(request.otpType, request.otpLength);
    const expiresAt = addSeconds(now, request.expirySeconds);
    const result: OtpSendResultDto = { uniq_id: uniqId, code, expires_at: toUnixSeconds(expiresAt) };

    let amount = 0;
    try {
      await this.database.transaction(async (sql) => {
        const sender = await this.resolveSender(sql, principal.accountId, request);
        const text = request.message.split(OTP_PLACEHOLDER).join(code);
        const quote = await this.billing.quote(sql, request.channel, request.dialCode, text);
        if (!quote) throw ApiError.invalidField('to', 'destination non prise en charge');
        if (request.channel === 'SMS' && this.optOut.blocksOtp && (await this.optOuts.listed(sql, principal.accountId, principal.test, [request.recipient])).size > 0) {
          throw ApiError.invalidField('to', OTP_OPTED_OUT);
        }

        await this.otps.claimRecipient(sql, principal.accountId, request.recipient, uniqId, now);
        const aliveSince = addSeconds(now, -MAX_EXPIRY_SECONDS);
        const earlierCodes = await this.enforceSendLimit(sql, principal.accountId, request.recipient, now, aliveSince);

        const lot = newLot();
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
        });
        if (earlierCodes) await this.otps.supersedeOthers(sql, principal.accountId, request.recipient, uniqId, aliveSince);

        amount = principal.test ? 0 : quote.amount;
        const delivery = { recordId: uniqId, accountId: principal.accountId, amount, test: principal.test, deliverBefore: expiresAt, at: now };
        if (request.channel === 'SMS') {
          const localNumber = request.useLocalNumber
            ? await this.senders.findLocalNumber(sql, principal.accountId, request.dialCode)
            : null;
          await this.recordSms(sql, principal, request, { uniqId, lot, senderId: sender.id, localNumber, quote, amount, at: now });
          await this.delivery.enqueueSms(sql, {
            ...delivery,
            payload: { from: localNumber ?? sender.name, to: request.recipient, text, secrets: [code] },
          });
        } else {
          await this.delivery.enqueueEmail(sql, {
            ...delivery,
            payload: {
              to: request.recipient,
              fromName: sender.name,
              text,
              language: request.language,
              applicationName: request.applicationName,
              secrets: [code],
            },
          });
        }

        await idempotency?.recordSuccess(sql, result);
        await this.ledger.debit(sql, principal.accountId, amount, { type: 'otp', id: uniqId, lot, createdBy: principal.userId }, now);
      });
    } catch (error) {
      if (!isOverdraft(error)) throw error;
      const balance = (await this.database.run((sql) => this.ledger.balanceOf(sql, principal.accountId))) ?? 0;
      throw ApiError.insufficientBalance(toAmount(amount), toAmount(balance));
    }

    this.delivery.committed('priority');
    return result;
  }

  /** SMS: a registered sender (the account's default when none is given). E-mail: any display name. */
  private async resolveSender(sql: Sql, accountId: string, request: SendRequest): Promise<{ id: string | null; name: string }> {
    if (request.channel === 'EMAIL' && request.senderName !== undefined) return { id: null, name: request.senderName };
    const sender = await this.senderDirectory.resolve(sql, accountId, request.senderName);
    if (!sender) throw ApiError.invalidField('sender', 'expéditeur inconnu');
    if (sender.status !== 'approved') throw ApiError.invalidField('sender', 'expéditeur non approuvé');
    return sender;
  }

  /** Refuses the send over the pair's limit; otherwise tells whether the pair has codes created after `aliveSince`. */
  private async enforceSendLimit(sql: Sql, accountId: string, recipient: string, now: Date, aliveSince: Date): Promise<boolean> {
    const windowMs = this.config.sendWindowSeconds * 1000;
    const sent = await this.otps.recentSends(sql, accountId, recipient, new Date(now.getTime() - windowMs), aliveSince);
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
    expirySeconds: dto.otp_expiry ?? DEFAULT_EXPIRY_SECONDS,
    useLocalNumber: dto.use_local_number ?? false,
    applicationName: dto.application_name ?? null,
    language: dto.language ?? 'fr',
  };
}
