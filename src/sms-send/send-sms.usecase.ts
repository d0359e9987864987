import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal.js';
import { isOverdraft, LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId, newLot } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { DeliveryQueue, type Delivery } from '../delivery/delivery-queue.js';
import type { SmsPayload } from '../delivery/outbox-payload.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import { MessageOutRepository, type NewMessageOut } from '../sms/message-out.repository.js';
import { Audience, type Recipient, type Rejection } from './audience.js';
import { nextOpening } from './delivery-window.js';
import { DEFAULT_VALIDITY_MINUTES, type SendSmsDto } from './dto/send-sms.dto.js';
import type { AcceptedMessageDto, SendResultDto } from './dto/send-result.dto.js';
import { MessageComposer, type ComposedMessage } from './message-composer.js';
import { RecentDuplicates } from './recent-duplicates.js';
import { SendOptions } from './send-options.js';
import { SmsLotRepository } from './sms-lot.repository.js';

/** The answer lists the messages, and the refused recipients, up to this many. */
const MAX_LISTED = 1000;
const MAX_REASONS_IN_ERROR = 20;

/** A message ready to be written. */
interface Accepted extends ComposedMessage {
  uniqId: string;
}

/**
 * POST /v1/sms/send (SPEC-2 §1.1). In one transaction: claim the lot's name,
 * expand and screen the recipients, price each personalised message, write
 * every message and its outbox entry, keep the answer for the Idempotency-Key
 * and, last, debit the total at once, which the database refuses to make
 * negative: a 402 leaves nothing behind, and a crash leaves all or nothing.
 */
@Injectable()
export class SendSms {
  constructor(
    private readonly database: Database,
    private readonly audience: Audience,
    private readonly lots: SmsLotRepository,
    private readonly recentDuplicates: RecentDuplicates,
    private readonly messages: MessageOutRepository,
    private readonly composer: MessageComposer,
    private readonly options: SendOptions,
    private readonly ledger: LedgerRepository,
    private readonly delivery: DeliveryQueue,
    private readonly idempotency: Idempotency,
    private readonly clock: Clock,
  ) {}

  execute(principal: Principal, dto: SendSmsDto, idempotency?: IdempotentRequest): Promise<SendResultDto> {
    return this.idempotency.once(principal.accountId, idempotency, (scope) => this.send(principal, dto, scope));
  }

  private async send(principal: Principal, dto: SendSmsDto, idempotency?: IdempotencyScope): Promise<SendResultDto> {
    const now = this.clock.now();
    const dueAt = this.dueTime(dto, now);
    const webhookUrl = dto.webhook_url === undefined ? null : await this.options.vetWebhookUrl(dto.webhook_url);
    const lot = dto.lot ?? newLot();
    const scheduled = dueAt.getTime() > now.getTime();

    let total = 0;
    let result: SendResultDto;
    try {
      result = await this.database.transaction(async (sql) => {
        const sender = await this.options.resolveSender(sql, principal.accountId, dto.sender);
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
        total = principal.test ? 0 : accepted.reduce((sum, message) => sum + message.amount, 0);

        const status = scheduled ? 'scheduled' : 'pending';
        const context: WriteContext = { principal, dto, lot, sender, status, dueAt, webhookUrl, now };
        await this.messages.insertMany(
          sql,
          accepted.map((message) => toRecord(message, context)),
        );
        await this.delivery.enqueueSmsMany(
          sql,
          accepted.map((message) => toDelivery(message, context)),
        );
        if (total > 0) await this.ledger.debit(sql, principal.accountId, total, { type: 'sms', id: lot, lot, createdBy: principal.userId }, now);
        const balance = (await this.ledger.balanceOf(sql, principal.accountId)) ?? 0;
        const answer = toResult(lot, accepted, rejected, { status, dueAt, total, balance, test: principal.test });
        await idempotency?.recordSuccess(sql, answer);
        return answer;
      });
    } catch (error) {
      if (!isOverdraft(error)) throw error;
      const balance = (await this.database.run((sql) => this.ledger.balanceOf(sql, principal.accountId))) ?? 0;
      throw ApiError.insufficientBalance(toAmount(total), toAmount(balance));
    }
    if (!scheduled) this.delivery.committed();
    return result;
  }

  /** When the messages are handed over: now, `send_at`, held until the delivery window opens. 400 for a bad window or a time too far. */
  private dueTime(dto: SendSmsDto, now: Date): Date {
    const due = this.options.dueAt(dto.send_at === undefined ? null : new Date(dto.send_at), now);
    return dto.delivery_window === undefined ? due : nextOpening(this.options.deliveryWindow(dto.delivery_window), due);
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

/** What every message of one request shares. */
interface WriteContext {
  principal: Principal;
  dto: SendSmsDto;
  lot: string;
  sender: { id: string; name: string };
  status: 'pending' | 'scheduled';
  dueAt: Date;
  webhookUrl: string | null;
  now: Date;
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
    bulk: true,
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
