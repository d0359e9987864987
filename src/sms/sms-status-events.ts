import { Injectable } from '@nestjs/common';
import { toAmount } from '../common/money.js';
import type { Sql } from '../database/sql.js';
import { SmsEventDataDto, SmsWebhookEventDto } from './dto/sms-event.dto.js';
import { subscribes } from '../webhook/account-webhook.repository.js';
import type { WebhookEventType } from '../webhook/webhook-event-types.js';
import { WebhookEvents, type WebhookEventInput } from '../webhook/webhook-events.js';
import { WebhookSubjects } from '../webhook/webhook-subjects.js';
import { MessageOutRepository, type MessageEventView } from './message-out.repository.js';

/** The statuses reported by an event; none is sent for `scheduled` or `pending`. */
const REPORTED = new Set(['sent', 'delivered', 'undelivered', 'failed', 'cancelled']);

/**
 * The `sms.*` webhook events: one per status change of a message, written in
 * the unit of work that made the change, to the message's own `webhook_url`
 * when it has one, else to the account's webhook if it subscribes to the type.
 * The change's number (`event_sequence`) keys the event, so that a change
 * recorded twice (a hand-over replayed after a crash) is reported once.
 */
@Injectable()
export class SmsStatusEvents {
  constructor(
    private readonly messages: MessageOutRepository,
    private readonly webhooks: WebhookEvents,
    subjects: WebhookSubjects,
  ) {
    webhooks.describe(SmsWebhookEventDto, SmsEventDataDto);
    subjects.register('sms', { recordResponse: (sql, uniqId, response) => this.messages.recordWebhookResponse(sql, uniqId, response) });
  }

  /** After status updates in `sql`: emits the events of the changes they made. */
  async changed(sql: Sql, uniqIds: readonly string[], at: Date): Promise<void> {
    const events: WebhookEventInput[] = [];
    for (const message of await this.messages.findForEvents(sql, uniqIds)) {
      if (message.sequence === 0 || !REPORTED.has(message.status)) continue;
      const type = `sms.${message.status}` as WebhookEventType;
      if (message.webhookUrl === null && !subscribes(message.accountWebhookEvents, type)) continue;
      events.push({ accountId: message.accountId, type, url: message.webhookUrl, subjectId: message.uniqId, sequence: message.sequence, at, data: toSmsEventData(message, at) });
    }
    await this.webhooks.emitMany(sql, events);
  }
}

function toSmsEventData(message: MessageEventView, at: Date): SmsEventDataDto {
  return {
    uniq_id: message.uniqId,
    lot: message.lot,
    external_id: message.externalId,
    campaign_id: message.campaignId,
    to: message.recipient,
    sender: message.sender,
    status: message.status,
    provider_status: message.providerStatus,
    error_code: null,
    mccmnc: message.mccmnc,
    page: String(message.page),
    amount: toAmount(message.amount),
    send_at: message.sendAt?.toISOString() ?? null,
    done_at: message.doneAt?.toISOString() ?? null,
    status_at: at.toISOString(),
    sequence: message.sequence,
    sandbox: message.test,
  };
}
