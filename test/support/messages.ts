import { v7 as uuidv7 } from 'uuid';
import type { MessageStatus } from '../../src/sms/dto/message-out.dto.js';
import { MessageOutRepository } from '../../src/sms/message-out.repository.js';
import type { Tenant } from './fixtures.js';
import type { TestApp } from './test-app.js';

export const PRICE_CI = '0191f3a0-0000-7000-8000-000000000225';

/** A message written straight to the database, as a send, a campaign or the dispatcher would have left it. */
export interface StoredMessage {
  uniqId: string;
  accountId: string;
  type: 'otp' | 'sms';
  status: MessageStatus;
  lot: string;
  externalId: string | null;
  campaignId: string | null;
  contactId: string | null;
  senderId: string;
  recipient: string;
  /** Hundredths. */
  amount: number;
  test: boolean;
  at: Date;
}

/** A message of `tenant` created at `at`, its id made at that time as the service makes it; `fields` override the rest. */
export function storedMessage(tenant: Tenant, at: Date, fields: Partial<StoredMessage> = {}): StoredMessage {
  return {
    uniqId: uuidv7({ msecs: at.getTime() }),
    accountId: tenant.accountId,
    type: 'sms',
    status: 'sent',
    lot: `lot-${at.getTime()}`,
    externalId: null,
    campaignId: null,
    contactId: null,
    senderId: tenant.senderId,
    recipient: '+2250707070707',
    amount: 250,
    test: false,
    at,
    ...fields,
  };
}

/** Writes the messages through the service's own repository, then moves each to its status. */
export async function storeMessages(t: TestApp, messages: readonly StoredMessage[]): Promise<void> {
  const repository = t.app.get(MessageOutRepository);
  await t.database.transaction(async (sql) => {
    for (const message of messages) {
      await repository.insert(sql, {
        ...message,
        messagePriceId: PRICE_CI,
        status: message.status === 'scheduled' ? 'scheduled' : 'pending',
        source: message.campaignId ? 'campaign' : 'api',
        message: 'Bonjour',
        segments: 1,
        encoding: 'GSM7',
        createdBy: message.accountId,
        localNumber: null,
        language: null,
      });
    }
    for (const message of messages) {
      if (message.status !== 'pending' && message.status !== 'scheduled') {
        await sql.run('UPDATE message_out SET status = ? WHERE uniq_id = ?', [message.status, message.uniqId]);
      }
    }
  });
}

/** Newest first, as lists are ordered. */
export const newestFirst = (messages: readonly StoredMessage[]): string[] => messages.map((message) => message.uniqId).sort().reverse();
