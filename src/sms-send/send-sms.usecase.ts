import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId, newLot } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import type { Sql } from '../database/sql.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { DeliveryQueue, type Delivery } from '../delivery/delivery-queue.js';
import type { SmsPayload } from '../delivery/outbox-payload.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { ApprovedSenders, type ApprovedSender } from '../sending/approved-senders.service.js';
import { Audience, type Recipient } from '../sending/audience.service.js';
import { CallbackUrls } from '../sending/callback-urls.service.js';
import { ChargedSend, type Charge, type ChargedUnit } from '../sending/charged-send.service.js';
import { LotRepository } from '../sending/lot.repository.js';
import { MessageComposer, type ComposedMessage } from '../sending/message-composer.service.js';
import { DEFAULT_VALIDITY_MINUTES } from '../sending/message-rules.js';
import { RecentDuplicates } from '../sending/recent-duplicates.repository.js';
import type { Rejection } from '../sending/rejection.js';
import { SendSchedule } from '../sending/send-schedule.service.js';
import { MessageOutRepository, type NewMessageOut } from '../sms/message-out.repository.js';
import type { SendSmsDto } from './dto/send-sms.dto.js';
import type { AcceptedMessageDto, SendResultDto } from './dto/send-result.dto.js';

/** The answer lists the messages, and the refused recipients, up to this many. */
const MAX_LISTED = 1000;
const MAX_REASONS_IN_ERROR = 20;

/** A message ready to be written. */
interface Accepted extends ComposedMessage {
  uniqId: string;
}

/**
 * POST /v1/sms/send (SPEC-2 §1.1), a charged send (ChargedSend): claim the
 * lot's name, expand and screen the recipients, price each personalised
 * message, and write every message and its outbox entry; the total is debited
 * at once, last, so a 402 leaves nothing behind and a crash all or nothing.
 */
@Injectable()
export class SendSms {
  constructor(
    private readonly charged: ChargedSend,
    private readonly senders: ApprovedSenders,
    private readonly callbackUrls: CallbackUrls,
    private readonly schedule: SendSchedule,
    private readonly audience: Audience,
    private readonly lots: LotRepository,
    private readonly recentDuplicates: RecentDuplicates,
    private readonly messages: MessageOutRepository,
    private readonly composer: MessageComposer,
    private readonly delivery: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  execute(principal: Principal, dto: SendSmsDto, idempotency?: IdempotentRequest): Promise<SendResultDto> {
    return this.charged.run(principal.accountId, idempotency, () => this.prepare(principal, dto));
  }

  /** What needs no transaction (the due time, the callback URL's DNS), then the unit that writes the send. */
  private async prepare(principal: Principal, dto: SendSmsDto): Promise<ChargedUnit<SendResultDto>> {
    const now = this.clock.now();
    const dueAt = this.schedule.dueWithin(dto.send_at === undefined ? null : new Date(dto.send_at), dto.delivery_window, now);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.callbackUrls.vet(dto.webhook_url);
    const plan: SendPlan = { principal, dto, lot: dto.lot ?? newLot(), status: dueAt.getTime() > now.getTime() ? 'scheduled' : 'pending', dueAt, webhookUrl, now };
    return (sql) => this.write(sql, plan);
  }

  private async write(sql: Sql, plan: SendPlan): Promise<Charge<SendResultDto>> {
    const { principal, dto, lot, status, dueAt, now } = plan;
    const context: WriteContext = { ...plan, sender: await this.senders.named(sql, principal.accountId, dto.sender) };
    await this.claimLot(sql, principal, { name: lot, generated: dto.lot === undefined }, now);
    const { recipients, rejected } = await this.audience.expand(sql, {
      accountId: principal.accountId,
      sandbox: principal.test,
      to: dto.to === undefined ? [] : typeof dto.to === 'string' ? [dto.to] : dto.to,
      contactIds: dto.contact_ids ?? [],
      groupIds: dto.group_ids ?? [],
      defaultCountry: dto.default_country,
    });
    const accepted = await this.price(sql, principal, dto, recipients, rejected, now);
    if (accepted.length === 0) {
      const reasons = rejected.slice(0, MAX_REASONS_IN_ERROR).map(({ to, reason }) => `${to}: ${reason}`);
      throw ApiError.validation(['to: aucun destinataire valide', ...reasons]);
    }
    const total = principal.test ? 0 : accepted.reduce((sum, message) => sum + message.amount, 0);
    await this.messages.insertMany(
      sql,
      accepted.map((message) => toRecord(message, context)),
    );
    await this.delivery.enqueueLot(
      sql,
      accepted.map((message) => toDelivery(message, context)),
    );
    return {
      cost: total,
      for: { type: 'sms', id: lot, lot, createdBy: principal.userId },
      at: now,
      answerWithBalance: (balance) => toResult(lot, accepted, rejected, { status, dueAt, total, balance, test: principal.test }),
      committed: status === 'pending' ? () => this.delivery.committed() : undefined,
    };
  }

  private async claimLot(sql: Sql, principal: Principal, lot: { name: string; generated: boolean }, now: Date): Promise<void> {
    const row = { accountId: principal.accountId, lot: lot.name, test: principal.test, at: now };
    if (lot.generated) return this.lots.insertGenerated(sql, row);
    try {
      await this.lots.insert(sql, row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw ApiError.conflict('deja_existant', [`lot: le lot ${lot.name} existe déjà`]);
    }
  }

  /** Each recipient's text and cost; those with no price, or the same text sent them lately, are refused. */
  private async price(sql: Sql, principal: Principal, dto: SendSmsDto, recipients: Recipient[], rejected: Rejection[], now: Date): Promise<Accepted[]> {
    const composition = { accountId: principal.accountId, sandbox: principal.test, message: dto.message, appendOptOut: dto.append_opt_out ?? false };
    const priced = (await this.composer.compose(sql, composition, recipients, rejected)).map((message) => ({ ...message, uniqId: newId(now) }));
    const recent = await this.recentDuplicates.among(sql, principal.accountId, priced, now);
    if (recent.size === 0) return priced;
    for (const message of priced) if (recent.has(message.uniqId)) rejected.push({ to: message.recipient.phone, reason: 'doublon_recent' });
    return priced.filter((message) => !recent.has(message.uniqId));
  }
}

/** What is decided before the unit of work, the same on each of its attempts. */
interface SendPlan {
  principal: Principal;
  dto: SendSmsDto;
  lot: string;
  status: 'pending' | 'scheduled';
  dueAt: Date;
  webhookUrl: string | null;
  now: Date;
}

/** What every message of one request shares. */
interface WriteContext extends SendPlan {
  sender: ApprovedSender;
}

function toRecord(message: Accepted, context: WriteContext): NewMessageOut {
  const { principal, dto } = context;
  return {
    uniqId: message.uniqId,
    accountId: principal.accountId,
    messagePriceId: message.priceId,
    type: 'sms',
    lot: context.lot,
    externalId: dto.external_id ?? null,
    contactId: message.recipient.contact?.id ?? null,
    senderId: context.sender.id,
    recipient: message.recipient.phone,
    country: message.recipient.country,
    message: message.text,
    segments: message.segments,
    encoding: message.encoding,
    amount: principal.test ? 0 : message.amount,
    status: context.status,
    sendAt: context.dueAt,
    webhookUrl: context.webhookUrl,
    createdBy: principal.userId,
    localNumber: null,
    language: null,
    test: principal.test,
    at: context.now,
  };
}

function toDelivery(message: Accepted, context: WriteContext): Delivery<SmsPayload> {
  const { principal } = context;
  return {
    recordId: message.uniqId,
    accountId: principal.accountId,
    amount: principal.test ? 0 : message.amount,
    test: principal.test,
    deliverBefore: null,
    at: context.now,
    scheduled: context.status === 'scheduled',
    availableAt: context.dueAt,
    payload: {
      from: context.sender.name,
      to: message.recipient.phone,
      text: message.text,
      secrets: [],
      validityMinutes: context.dto.validity_period ?? DEFAULT_VALIDITY_MINUTES,
    },
  };
}

function toResult(
  lot: string,
  accepted: Accepted[],
  rejected: Rejection[],
  outcome: { status: 'pending' | 'scheduled'; dueAt: Date; total: number; balance: number; test: boolean },
): SendResultDto {
  const sendAt = outcome.dueAt.toISOString();
  const result: SendResultDto = {
    lot,
    count: accepted.length,
    amount: toAmount(outcome.total),
    balance: toAmount(outcome.balance),
    scheduled: outcome.status === 'scheduled',
    rejected: rejected.slice(0, MAX_LISTED),
  };
  if (accepted.length <= MAX_LISTED) {
    result.messages = accepted.map((message): AcceptedMessageDto => ({
      uniq_id: message.uniqId,
      to: message.recipient.phone,
      status: outcome.status,
      page: message.segments,
      amount: toAmount(outcome.test ? 0 : message.amount),
      send_at: sendAt,
    }));
  }
  return result;
}
