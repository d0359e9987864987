import { Inject, Injectable } from '@nestjs/common';
import { BillingService, type Quote } from '../billing/billing.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { optOutConfig, type OptOutConfig } from '../config/opt-out.config.js';
import type { Sql } from '../database/sql.js';
import { UNSUBSCRIBE_LINKS, type UnsubscribeLinks } from '../opt-out/unsubscribe-links.js';
import { SmsDestinations } from '../routing/sms-destinations.service.js';
import type { Recipient } from './audience.service.js';
import { MAX_MESSAGE_LENGTH, MESSAGE_TOO_LONG } from './message-rules.js';
import type { Rejection } from './rejection.js';
import { hasPlaceholders, personalise } from './personalise.js';

/** What is sent, from whom's account and in which mode, and whether the unsubscribe instruction follows the text. */
export interface Composition {
  accountId: string;
  sandbox: boolean;
  message: string;
  appendOptOut: boolean;
}

/** One recipient's text and its price. */
export interface ComposedMessage {
  recipient: Recipient;
  text: string;
  priceId: string;
  segments: number;
  encoding: string;
  /** Hundredths, the real price even for a sandbox key (which is not debited). */
  amount: number;
}

/**
 * Each recipient's text, personalised from its contact and followed by its
 * unsubscribe instruction when asked for (`OPT_OUT_TEXT`, which counts in
 * segments and cost), and what it costs (SPEC-2 §1.1 step 5, §3). Shared by
 * POST /sms/send and campaign launches.
 */
@Injectable()
export class MessageComposer {
  constructor(
    private readonly billing: BillingService,
    @Inject(optOutConfig.KEY) private readonly optOut: OptOutConfig,
    @Inject(UNSUBSCRIBE_LINKS) private readonly links: UnsubscribeLinks,
    private readonly destinations: SmsDestinations,
  ) {}

  /**
   * The priced messages; a recipient whose destination has no price, or that no SMS route takes, is refused
   * (`rejected`). 400 for a text too long once personalised.
   */
  async compose(sql: Sql, composition: Composition, recipients: readonly Recipient[], rejected: Rejection[]): Promise<ComposedMessage[]> {
    const textOf = this.textOf(composition);
    const priced: ComposedMessage[] = [];
    // most recipients share their text and calling code: each pair is priced and segmented once
    const quotes = new Map<string, Quote | null>();
    for (const recipient of recipients) {
      const text = textOf(recipient);
      if (text.length > MAX_MESSAGE_LENGTH) throw ApiError.invalidField('message', `${MESSAGE_TOO_LONG} (personnalisé pour ${recipient.phone})`);
      const key = `${recipient.dialCode}\n${text}`;
      let quote = quotes.get(key);
      if (quote === undefined) {
        quote = await this.billing.quote(sql, 'SMS', recipient.dialCode, text);
        quotes.set(key, quote);
      }
      if (!quote) {
        rejected.push({ to: recipient.phone, reason: 'destination_non_prise_en_charge' });
        continue;
      }
      priced.push({ recipient, text, priceId: quote.priceId, segments: quote.segments, encoding: quote.encoding ?? 'GSM7', amount: quote.amount });
    }
    const unroutable = await this.destinations.unroutable(sql, composition.accountId, 'bulk', priced.map((message) => message.recipient.phone));
    if (unroutable.size === 0) return priced;
    for (const phone of unroutable) rejected.push({ to: phone, reason: 'destination_non_prise_en_charge' });
    return priced.filter((message) => !unroutable.has(message.recipient.phone));
  }

  private textOf(composition: Composition): (recipient: Recipient) => string {
    const { message } = composition;
    const personal = hasPlaceholders(message);
    const body = (recipient: Recipient) => (personal ? personalise(message, recipient.contact) : message);
    if (!composition.appendOptOut) return body;
    return (recipient) => {
      const link = `${this.optOut.linkBase}/u/${this.links.token({ accountId: composition.accountId, phone: recipient.phone, sandbox: composition.sandbox })}`;
      return `${body(recipient)}\n${this.optOut.text.replaceAll('{link}', link)}`;
    };
  }
}
