import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { maskRecipient } from '../common/redact.js';
import { optOutConfig, type OptOutConfig } from '../config/opt-out.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { DeliveryQueue } from '../delivery/delivery-queue.js';
import { InboundMessages, type InboundReceiver, type MobileOriginated } from '../delivery/inbound-messages.js';
import { Metrics } from '../metrics/metrics.js';
import { OptOutWriter } from '../opt-out/opt-out-writer.js';
import { SenderRepository } from '../sender/sender.repository.js';
import { SmsReceivedEventDataDto, SmsReceivedWebhookEventDto } from './dto/sms-received-event.dto.js';
import { toMessageInDto } from './message-in-view.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { KeywordReplies } from './keyword-replies.js';
import { MessageInRepository, type MessageInRecord } from './message-in.repository.js';
import { matchKeyword } from './sms-keywords.js';

type Outcome = 'stored' | 'unowned' | 'shared';

/**
 * Takes in every inbound SMS a provider hands over (SPEC-2 §3). It belongs to
 * the one account that has the number written to as a local number; one for
 * a number no account has, or several share, is logged, counted and dropped.
 * The message, its keyword's effect on the opt-out list (with the `contact.*`
 * event), its `sms.received` event and, with OPT_OUT_CONFIRMATION, the
 * keyword's confirmation are written in one transaction.
 */
@Injectable()
export class InboundSmsReceiver implements InboundReceiver {
  private readonly logger = new Logger(InboundSmsReceiver.name);

  constructor(
    private readonly database: Database,
    private readonly senders: SenderRepository,
    private readonly messages: MessageInRepository,
    private readonly optOuts: OptOutWriter,
    private readonly webhooks: WebhookEvents,
    private readonly replies: KeywordReplies,
    private readonly delivery: DeliveryQueue,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    @Inject(optOutConfig.KEY) private readonly optOut: OptOutConfig,
    inbound: InboundMessages,
  ) {
    webhooks.describe(SmsReceivedWebhookEventDto, SmsReceivedEventDataDto);
    inbound.register(this);
  }

  async receive(sms: MobileOriginated): Promise<void> {
    const at = this.clock.now();
    let replied = false;
    const outcome = await this.database.transaction(async (sql): Promise<Outcome> => {
      const holders = await this.senders.holdersOfLocalNumber(sql, sms.to);
      if (holders.length !== 1) return holders.length === 0 ? 'unowned' : 'shared';
      replied = await this.store(sql, holders[0]!, sms, at);
      return 'stored';
    });
    if (replied) this.delivery.committed('priority');
    this.metrics.inboundSms.inc({ outcome });
    if (outcome !== 'stored') {
      this.logger.warn({ from: maskRecipient(sms.from), to: sms.to, provider: sms.provider, outcome }, 'inbound SMS to a number of no single account dropped');
    }
  }

  /** Stores the message and applies its keyword; true when the keyword's confirmation was queued. */
  private async store(sql: Sql, accountId: string, sms: MobileOriginated, at: Date): Promise<boolean> {
    const match = matchKeyword(sms.text);
    const message: MessageInRecord = {
      id: newId(at),
      accountId,
      from: sms.from,
      to: sms.to,
      message: sms.text,
      encoding: sms.encoding,
      keyword: match?.keyword ?? null,
      provider: sms.provider,
      providerId: sms.providerId,
      receivedAt: at,
    };
    await this.messages.insert(sql, message);
    // inbound traffic is live: it changes the live list, never a sandbox key's
    const list = { accountId, sandbox: false, source: 'sms_keyword' as const, keyword: message.keyword, at };
    const senderId = match ? await this.senderOf(sql, accountId, sms.to) : null;
    if (match?.action === 'opt-out') await this.optOuts.add(sql, [sms.from], { ...list, createdBy: null, senderId });
    if (match?.action === 'opt-in') await this.optOuts.remove(sql, sms.from, list);
    await this.webhooks.emit(sql, { accountId, type: 'sms.received', data: toMessageInDto(message), at });
    return match !== null && this.optOut.confirmation && (await this.replies.reply(sql, accountId, senderId, sms, match.action, at));
  }

  /** The account's approved sender whose name is the number written to (a two-way numeric sender), if any. */
  private async senderOf(sql: Sql, accountId: string, number: string): Promise<string | null> {
    const sender = await this.senders.findByName(sql, accountId, number.slice(1));
    return sender?.status === 'approved' ? sender.id : null;
  }
}

