import { readBoolean, readTime } from '../database/sql.js';

interface Ref {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** An outgoing SMS with what GET /sms/out shows of its relations. */
export interface MessageOutView {
  uniqId: string;
  accountId: string;
  externalId: string | null;
  messagePriceId: string | null;
  type: string;
  lot: string;
  senderId: string | null;
  /** The contact named when it was sent, else the account's contact with its number. */
  contactId: string | null;
  campaignId: string | null;
  recipient: string;
  message: string;
  page: number;
  encoding: string;
  amount: number;
  sendAt: Date;
  doneAt: Date | null;
  mccmnc: string | null;
  dlrNumberRetry: number;
  provider: string | null;
  providerId: string | null;
  providerStatus: string | null;
  source: string;
  status: string;
  createdBy: string;
  webhookUrl: string | null;
  webhookResponse: string | null;
  retrieve: boolean;
  localNumber: string | null;
  language: string | null;
  test: boolean;
  company: { id: string; name: string; email: string | null; phone: string | null };
  price: { id: string; description: string; amount: number } | null;
  sender: { id: string; name: string; email: string | null; phone: string | null } | null;
  /** Null when that contact has been deleted (the message keeps its `contactId`). */
  contact: Ref | null;
  author: { id: string; name: string; email: string | null } | null;
}

/**
 * The columns of a message's view but its account's (`company_*`): the
 * message, its price, sender and author, and its contact, which is the one the
 * send named (`named_*`) or, for a message that names none (an OTP), the
 * account's contact with its number (`by_phone_*`).
 */
export const VIEW_COLUMNS = `m.*,
         p.description AS price_description, p.amount AS price_amount,
         s.name AS sender_name, s.email AS sender_email, s.phone AS sender_phone,
         u.name AS author_name, u.email AS author_email,
         n.id AS named_id, n.name AS named_name, n.email AS named_email, n.phone AS named_phone,
         c.id AS by_phone_id, c.name AS by_phone_name, c.email AS by_phone_email, c.phone AS by_phone_phone`;

/** The joins of the view's columns, after `message_out m`. */
export const VIEW_JOINS = `LEFT JOIN message_price p ON p.id = m.message_price_id
    LEFT JOIN sender s ON s.id = m.sender_id
    LEFT JOIN user u ON u.id = m.created_by
    LEFT JOIN contact n ON n.id = m.contact_id AND n.account_id = m.account_id
    LEFT JOIN contact c ON m.contact_id IS NULL AND c.account_id = m.account_id AND c.phone = m.recipient`;

/** The account's columns of the view. */
export const COMPANY_COLUMNS = 'a.name AS company_name, a.email AS company_email, a.phone AS company_phone';

export function toView(row: Record<string, unknown>): MessageOutView {
  const text = (key: string) => (row[key] ?? null) as string | null;
  const ref = (prefix: string): Ref | null =>
    row[`${prefix}_id`] ? { id: row[`${prefix}_id`] as string, name: text(`${prefix}_name`), email: text(`${prefix}_email`), phone: text(`${prefix}_phone`) } : null;
  const named = text('contact_id');
  return {
    uniqId: row.uniq_id as string,
    accountId: row.account_id as string,
    externalId: text('external_id'),
    messagePriceId: text('message_price_id'),
    type: row.type as string,
    lot: row.lot as string,
    senderId: text('sender_id'),
    contactId: named ?? text('by_phone_id'),
    campaignId: text('campaign_id'),
    recipient: row.recipient as string,
    message: row.message as string,
    page: Number(row.page),
    encoding: row.message_encoding as string,
    amount: Number(row.amount),
    sendAt: readTime(row.send_at as string | Date),
    doneAt: readTime(row.done_at as string | Date | null),
    mccmnc: text('mccmnc'),
    dlrNumberRetry: Number(row.dlr_number_retry),
    provider: text('provider'),
    providerId: text('provider_id'),
    providerStatus: text('provider_status'),
    source: row.source as string,
    status: row.status as string,
    createdBy: row.created_by as string,
    webhookUrl: text('webhook_url'),
    webhookResponse: text('webhook_response'),
    retrieve: readBoolean(row.retrieve),
    localNumber: text('local_number'),
    language: text('language'),
    test: readBoolean(row.is_test),
    company: {
      id: row.account_id as string,
      name: row.company_name as string,
      email: text('company_email'),
      phone: text('company_phone'),
    },
    price:
      row.message_price_id && row.price_description !== null
        ? { id: row.message_price_id as string, description: row.price_description as string, amount: Number(row.price_amount) }
        : null,
    sender:
      row.sender_id && row.sender_name !== null
        ? { id: row.sender_id as string, name: row.sender_name as string, email: text('sender_email'), phone: text('sender_phone') }
        : null,
    contact: named ? ref('named') : ref('by_phone'),
    author: row.author_name !== null ? { id: row.created_by as string, name: row.author_name as string, email: text('author_email') } : null,
  };
}
