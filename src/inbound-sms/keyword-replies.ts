import { Injectable, Logger } from '@nestjs/common';
import { AccountRepository } from '../account/account.repository.js';
import { segment } from '../billing/segments.js';
import { newId, newLot } from '../common/ids.js';
import { parsePhone } from '../common/recipient.js';
import type { Sql } from '../database/sql.js';
import { DeliveryQueue } from '../delivery/delivery-queue.js';
import type { MobileOriginated } from '../delivery/inbound-messages.js';
import { MessageOutRepository } from '../sms/message-out.repository.js';
import type { KeywordAction } from './sms-keywords.js';

/** What each kind of keyword is answered, in GSM-7 and one SMS. */
export const KEYWORD_REPLIES: Record<KeywordAction, string> = {
  'opt-out': 'Vous ne recevrez plus nos messages sur ce numero. Envoyez START pour vous reabonner.',
  'opt-in': 'Vous recevrez de nouveau nos messages. Envoyez STOP pour ne plus les recevoir.',
  help: 'Envoyez STOP pour ne plus recevoir nos messages, START pour les recevoir de nouveau.',
};

/**
 * The confirmation of a keyword (OPT_OUT_CONFIRMATION): an SMS from the number
 * written to back to its writer, in the unit of work that stores the keyword.
 * It is a message of the account (`source: reply`), made on its behalf (its
 * owner is `created_by`), never debited.
 */
@Injectable()
export class KeywordReplies {
  private readonly logger = new Logger(KeywordReplies.name);

  constructor(
    private readonly accounts: AccountRepository,
    private readonly messages: MessageOutRepository,
    private readonly delivery: DeliveryQueue,
  ) {}

  /** Queues the reply; false when the account has no owner to make it on behalf of. */
  async reply(sql: Sql, accountId: string, senderId: string | null, sms: MobileOriginated, action: KeywordAction, at: Date): Promise<boolean> {
    const owner = (await this.accounts.findById(sql, accountId))?.createdBy ?? null;
    if (owner === null) {
      this.logger.warn({ accountId }, 'keyword not confirmed: the account has no owner');
      return false;
    }
    const text = KEYWORD_REPLIES[action];
    const { encoding, parts } = segment(text);
    const uniqId = newId(at);
    await this.messages.insert(sql, {
      uniqId,
      accountId,
      messagePriceId: null,
      type: 'sms',
      lot: newLot(),
      source: 'reply',
      senderId,
      recipient: sms.from,
      country: parsePhone(sms.from)?.country ?? null,
      message: text,
      segments: parts.length,
      encoding,
      amount: 0,
      createdBy: owner,
      localNumber: sms.to,
      language: 'fr',
      test: false,
      at,
    });
    await this.delivery.enqueueSms(sql, {
      recordId: uniqId,
      accountId,
      amount: 0,
      test: false,
      deliverBefore: null,
      at,
      payload: { from: sms.to, to: sms.from, text, secrets: [] },
    });
    return true;
  }
}
