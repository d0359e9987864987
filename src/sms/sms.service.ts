import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { toAmount } from '../common/money.js';
import { ContactRepository } from '../contact/contact.repository.js';
import { Database } from '../database/database.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import type { AdminMessageDto } from './dto/admin-message.dto.js';
import type { LotSummaryDto } from './dto/lot-summary.dto.js';
import type { MessageOutQueryDto } from './dto/message-out-query.dto.js';
import { MESSAGE_STATUSES, type MessageOutDto, type MessageStatus } from './dto/message-out.dto.js';
import { MessageAttemptRepository } from './message-attempt.repository.js';
import { boundFilters, messageFilters } from './message-filters.js';
import { MessageOutListRepository, type LotStatusRow } from './message-out-list.repository.js';
import { MessageOutRepository } from './message-out.repository.js';
import type { MessageOutView } from './message-out-view.js';

export const SMS_NOT_FOUND = 'id: aucun SMS pour cet identifiant ou ce lot';
export const OPERATOR_SMS_NOT_FOUND = 'uniq_id: aucun SMS pour cet identifiant';
export const LOT_NOT_FOUND = 'lot: aucun SMS pour ce lot';
export const NO_WEBHOOK_EVENT = "id: ce SMS n'a encore aucun évènement webhook";
export const WEBHOOK_IN_FLIGHT = 'id: un envoi de son évènement webhook est en cours';

@Injectable()
export class SmsService {
  constructor(
    private readonly database: Database,
    private readonly messages: MessageOutRepository,
    private readonly lists: MessageOutListRepository,
    private readonly attempts: MessageAttemptRepository,
    private readonly contacts: ContactRepository,
    private readonly webhooks: WebhookEvents,
    private readonly clock: Clock,
  ) {}

  /** A message of the key's mode: the other mode's is 404, like another account's. */
  async findOne(principal: Principal, idOrLot: string): Promise<MessageOutDto> {
    const found = LOT_SHAPE.test(idOrLot)
      ? await this.database.run((sql) => this.messages.findByIdOrLot(sql, principal.accountId, principal.test, idOrLot))
      : null;
    if (!found) throw ApiError.notFound('Non trouvé', [SMS_NOT_FOUND]);
    return toMessageOutDto(found);
  }

  /** Any account's message, with every submit of it to a connector (the operator's read). */
  async findForOperator(uniqId: string): Promise<AdminMessageDto> {
    const found = isUuid(uniqId)
      ? await this.database.run(async (sql) => {
          const message = await this.messages.findAnywhere(sql, uniqId);
          return message && { message, attempts: await this.attempts.of(sql, uniqId) };
        })
      : null;
    if (!found) throw ApiError.notFound('Non trouvé', [OPERATOR_SMS_NOT_FOUND]);
    return {
      ...toMessageOutDto(found.message),
      attempts: found.attempts.map((attempt) => ({ connector: attempt.connector, outcome: attempt.outcome, at: attempt.at.toISOString() })),
    };
  }

  /** A page of the messages of the key's mode that match every filter given, in the last 30 days unless a range is. */
  list(principal: Principal, query: MessageOutQueryDto): Promise<ListPage<MessageOutDto>> {
    const filters = messageFilters(query, this.clock.now());
    const page = Page.of(query, boundFilters(filters, query));
    return this.database.run(async (sql) => {
      const contactPhone = filters.contactId === undefined ? null : ((await this.contacts.phoneOf(sql, principal.accountId, filters.contactId)) ?? null);
      const messages = await this.lists.page(sql, principal.accountId, principal.test, filters, contactPhone, page);
      return page.answer(messages, (message) => message.uniqId, toMessageOutDto);
    });
  }

  /** Counts by status and the amount of the lot's messages of the key's mode. */
  async lotSummary(principal: Principal, lot: string): Promise<LotSummaryDto> {
    const rows = LOT_SHAPE.test(lot) ? await this.database.run((sql) => this.lists.summariseLot(sql, principal.accountId, principal.test, lot)) : [];
    if (rows.length === 0) throw ApiError.notFound('Non trouvé', [LOT_NOT_FOUND]);
    return toLotSummary(lot, rows);
  }

  /** Queues the message's latest webhook event again, with its id; by `uniq_id` only (a lot has many messages). */
  async resendWebhook(principal: Principal, uniqId: string): Promise<{ event_id: string }> {
    const resent = !isUuid(uniqId)
      ? undefined
      : await this.database.transaction(async (sql) => {
          if (!(await this.messages.exists(sql, principal.accountId, principal.test, uniqId))) return undefined;
          return this.webhooks.resendLatest(sql, principal.accountId, uniqId, this.clock.now());
        });
    if (resent === undefined) throw ApiError.notFound('Non trouvé', [SMS_NOT_FOUND]);
    if (resent === null) throw ApiError.conflict('transition_invalide', [NO_WEBHOOK_EVENT]);
    if (resent === 'in-flight') throw ApiError.conflict('transition_invalide', [WEBHOOK_IN_FLIGHT]);
    return { event_id: resent };
  }
}

/** A uniq_id, or a lot: a ULID, or a name of 1 to 64 `[A-Za-z0-9_-]` given by the client. */
const LOT_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** Refunded when they became so: their amounts are no longer charged. */
const REFUNDED = new Set<string>(['failed', 'cancelled']);

function toLotSummary(lot: string, rows: LotStatusRow[]): LotSummaryDto {
  const byStatus = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
  let charged = 0;
  for (const row of rows) {
    byStatus[row.status as MessageStatus] = row.count;
    if (!REFUNDED.has(row.status)) charged += row.amount;
  }
  return {
    lot,
    campaign_id: rows.find((row) => row.campaignId !== null)?.campaignId ?? null,
    count: rows.reduce((sum, row) => sum + row.count, 0),
    amount: toAmount(charged),
    by_status: byStatus,
    created_at: new Date(Math.min(...rows.map((row) => row.createdAt.getTime()))).toISOString(),
  };
}

function toMessageOutDto(message: MessageOutView): MessageOutDto {
  return {
    company_id: message.accountId,
    uniq_id: message.uniqId,
    external_id: message.externalId,
    message_price_id: message.messagePriceId,
    type: message.type,
    lot: message.lot,
    sender_id: message.senderId,
    contact_id: message.contactId,
    to: message.recipient,
    campaign_id: message.campaignId,
    message: message.message,
    page: String(message.page),
    message_encoding: message.encoding,
    amount: toAmount(message.amount),
    send_at: message.sendAt.toISOString(),
    done_at: message.doneAt?.toISOString() ?? null,
    mccmnc: message.mccmnc,
    dlr_number_retry: message.dlrNumberRetry,
    provider: message.provider,
    provider_id: message.providerId,
    provider_status: message.providerStatus,
    source: message.source,
    status: message.status,
    created_by: message.createdBy,
    webhook_url: message.webhookUrl,
    webhook_response: message.webhookResponse,
    retrieve: message.retrieve,
    local_number: message.localNumber,
    language: message.language,
    sandbox: message.test,
    company: message.company,
    message_price: message.price && { ...message.price, amount: toAmount(message.price.amount) },
    sender: message.sender,
    contact: message.contact,
    author: message.author,
  };
}
