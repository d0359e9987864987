import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUlid, isUuid } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import { ContactRepository, type ContactRef } from '../contact/contact.repository.js';
import { Database } from '../database/database.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import type { MessageOutDto } from './dto/message-out.dto.js';
import { MessageOutRepository, type MessageOutView } from './message-out.repository.js';

export const SMS_NOT_FOUND = 'id: aucun SMS pour cet identifiant ou ce lot';
export const NO_WEBHOOK_EVENT = "id: ce SMS n'a encore aucun évènement webhook";
export const WEBHOOK_IN_FLIGHT = 'id: un envoi de son évènement webhook est en cours';

@Injectable()
export class SmsService {
  constructor(
    private readonly database: Database,
    private readonly messages: MessageOutRepository,
    private readonly contacts: ContactRepository,
    private readonly webhooks: WebhookEvents,
    private readonly clock: Clock,
  ) {}

  async findOne(accountId: string, idOrLot: string): Promise<MessageOutDto> {
    const found = !isUuid(idOrLot) && !isUlid(idOrLot) ? null : await this.database.run(async (sql) => {
      const message = await this.messages.findByIdOrLot(sql, accountId, idOrLot);
      if (!message) return null;
      const contact = await this.contacts.findByPhone(sql, accountId, message.recipient);
      return { message, contact: contact ?? null };
    });
    if (!found) throw ApiError.notFound('Non trouvé', [SMS_NOT_FOUND]);
    return toMessageOutDto(found.message, found.contact);
  }

  /** Queues the message's latest webhook event again, with its id; by `uniq_id` only (a lot has many messages). */
  async resendWebhook(accountId: string, uniqId: string): Promise<{ event_id: string }> {
    const resent = !isUuid(uniqId)
      ? undefined
      : await this.database.transaction(async (sql) => {
          if (!(await this.messages.exists(sql, accountId, uniqId))) return undefined;
          return this.webhooks.resendLatest(sql, accountId, uniqId, this.clock.now());
        });
    if (resent === undefined) throw ApiError.notFound('Non trouvé', [SMS_NOT_FOUND]);
    if (resent === null) throw ApiError.conflict('transition_invalide', [NO_WEBHOOK_EVENT]);
    if (resent === 'in-flight') throw ApiError.conflict('transition_invalide', [WEBHOOK_IN_FLIGHT]);
    return { event_id: resent };
  }
}

function toMessageOutDto(message: MessageOutView, contact: ContactRef | null): MessageOutDto {
  return {
    company_id: message.accountId,
    uniq_id: message.uniqId,
    external_id: message.externalId,
    message_price_id: message.messagePriceId,
    type: message.type,
    lot: message.lot,
    sender_id: message.senderId,
    contact_id: contact?.id ?? null,
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
    company: message.company,
    message_price: message.price && { ...message.price, amount: toAmount(message.price.amount) },
    sender: message.sender,
    contact,
    author: message.author,
  };
}
