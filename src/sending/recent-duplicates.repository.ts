import { Inject, Injectable } from '@nestjs/common';
import { uuidV7Floor } from '../common/ids.js';
import { smsConfig, type SmsConfig } from '../config/sms.config.js';
import { placeholders, type Sql } from '../database/sql.js';

const CHUNK = 500;

/** `doublon_recent`: the same text to the same number within `SMS_DUPLICATE_WINDOW_SECONDS` (off at 0). */
@Injectable()
export class RecentDuplicates {
  constructor(@Inject(smsConfig.KEY) private readonly config: SmsConfig) {}

  /** The uniq_ids, among `messages`, whose number got the same text lately. */
  async among(
    sql: Sql,
    accountId: string,
    messages: ReadonlyArray<{ uniqId: string; recipient: { phone: string }; text: string }>,
    now: Date,
  ): Promise<Set<string>> {
    const found = new Set<string>();
    if (this.config.duplicateWindowSeconds === 0 || messages.length === 0) return found;
    // uniq_ids are time-ordered: the window is a key range of the (account_id, recipient, uniq_id) index
    const since = uuidV7Floor(new Date(now.getTime() - this.config.duplicateWindowSeconds * 1000));
    const sent = new Set<string>();
    for (let start = 0; start < messages.length; start += CHUNK) {
      const phones = messages.slice(start, start + CHUNK).map((message) => message.recipient.phone);
      const rows = await sql.all<{ recipient: string; message: string }>(
        `SELECT recipient, message FROM message_out WHERE account_id = ? AND recipient IN (${placeholders(phones)}) AND uniq_id >= ? AND type = 'sms'`,
        [accountId, ...phones, since],
      );
      for (const row of rows) sent.add(`${row.recipient}\n${row.message}`);
    }
    for (const message of messages) if (sent.has(`${message.recipient.phone}\n${message.text}`)) found.add(message.uniqId);
    return found;
  }
}
