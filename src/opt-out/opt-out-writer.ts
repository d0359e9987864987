import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { ContactEventDataDto, ContactWebhookEventDto } from './dto/contact-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import { isRecipientSource, OptOutRepository, type NewOptOuts, type OptOutSource } from './opt-out.repository.js';

/** Who takes a number off the list, and when. */
export interface OptIn {
  accountId: string;
  sandbox: boolean;
  source: OptOutSource;
  at: Date;
  keyword?: string | null;
}

/** Why a number could not be taken off the list. */
export type OptInRefusal = 'not-listed' | 'recipient-only';

/**
 * Changes to the opt-out list with their webhook events (`contact.opted_out`,
 * `contact.opted_in`), one per number actually added or removed, written in
 * the caller's unit of work so that an event exists exactly when its change does.
 */
@Injectable()
export class OptOutWriter {
  constructor(
    private readonly optOuts: OptOutRepository,
    private readonly webhooks: WebhookEvents,
  ) {
    webhooks.describe(ContactWebhookEventDto, ContactEventDataDto);
  }

  /** Puts the numbers on the list; returns those that were not on it. */
  async add(sql: Sql, phones: readonly string[], entry: NewOptOuts): Promise<string[]> {
    // one order for every unit of work: concurrent inserts of overlapping numbers wait for each other instead of deadlocking
    const added = await this.optOuts.addMany(sql, [...new Set(phones)].sort(), entry);
    await this.report(sql, 'contact.opted_out', added, { ...entry, keyword: entry.keyword ?? null });
    return added;
  }

  /** Takes the number off the list when its entry is not one only its recipient can undo, or when the recipient asks (START). */
  async remove(sql: Sql, phone: string, change: OptIn): Promise<OptInRefusal | null> {
    const outcome = await this.optOuts.remove(sql, change.accountId, change.sandbox, phone, isRecipientSource(change.source));
    if (!outcome.removed) return outcome.source === null ? 'not-listed' : 'recipient-only';
    await this.report(sql, 'contact.opted_in', [phone], { ...change, keyword: change.keyword ?? null });
    return null;
  }

  private async report(
    sql: Sql,
    type: 'contact.opted_out' | 'contact.opted_in',
    phones: readonly string[],
    change: { accountId: string; sandbox: boolean; source: OptOutSource; keyword: string | null; at: Date },
  ): Promise<void> {
    if (phones.length === 0) return;
    const contacts = await this.optOuts.contactsOf(sql, change.accountId, phones);
    for (const phone of phones) {
      const data: ContactEventDataDto = {
        phone,
        source: change.source,
        keyword: change.keyword,
        contact_id: contacts.get(phone) ?? null,
        sandbox: change.sandbox,
        at: change.at.toISOString(),
      };
      await this.webhooks.emit(sql, { accountId: change.accountId, type, data, at: change.at });
    }
  }
}
