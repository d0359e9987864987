import type { MobileOriginated } from '../../inbound-messages.js';

export interface MobileOriginatedPdu {
  esm_class?: unknown;
  source_addr?: unknown;
  destination_addr?: unknown;
  data_coding?: unknown;
  short_message?: unknown;
  message_payload?: unknown;
}

/** esm_class bits 2–5: the message type; a delivery receipt, an acknowledgement or a notification is no message of its own. */
const MESSAGE_TYPE = 0x3c;

/** SMPP 3.4 §5.2.19 data_coding, low nibble: what the `smpp` package decodes the text from. */
const ENCODINGS: Record<number, string> = { 0x00: 'GSM7', 0x01: 'GSM7', 0x03: 'LATIN1', 0x08: 'UCS2' };

/**
 * A mobile-originated message from a deliver_sm that is not a receipt: the
 * addresses as E.164 (an SMSC gives them in international form, without `+`),
 * the text as the `smpp` package decoded it. Null for a receipt or another
 * notification, and when an address is not a number.
 */
export function readMobileOriginated(pdu: MobileOriginatedPdu): Omit<MobileOriginated, 'provider'> | null {
  if ((Number(pdu.esm_class ?? 0) & MESSAGE_TYPE) !== 0) return null;
  const from = e164(pdu.source_addr);
  const to = e164(pdu.destination_addr);
  if (!from || !to) return null;
  const encoding = ENCODINGS[Number(pdu.data_coding ?? 0) & 0x0f] ?? 'BINARY';
  return { providerId: null, from, to, text: textOf(pdu.short_message) || textOf(pdu.message_payload), encoding };
}

function e164(address: unknown): string | null {
  const digits = typeof address === 'string' ? address.replace(/^\+/, '') : '';
  return /^\d{3,15}$/.test(digits) ? `+${digits}` : null;
}

function textOf(value: unknown): string {
  const message = typeof value === 'object' && value !== null && !Buffer.isBuffer(value) ? (value as { message?: unknown }).message : value;
  if (typeof message === 'string') return message;
  return Buffer.isBuffer(message) ? message.toString('latin1') : '';
}
