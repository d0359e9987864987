import type { ReceiptOutcome, ReceiptReport } from '../../delivery-receipt.js';

/** SMPP 3.4 §5.3.2.35 message_state values, as the receipt text names them. */
const MESSAGE_STATES: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

const OUTCOMES: Record<string, ReceiptOutcome | null> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'undelivered',
  DELETED: 'undelivered',
  REJECTD: 'undelivered',
  UNKNOWN: 'undelivered',
  ENROUTE: null,
  ACCEPTD: null,
};

export interface DeliverSm {
  esm_class?: unknown;
  receipted_message_id?: unknown;
  message_state?: unknown;
  short_message?: unknown;
}

const MC_DELIVERY_RECEIPT = 0x04;

/**
 * Reads a delivery receipt from a deliver_sm: the receipted_message_id and
 * message_state TLVs when present, else the `id:… stat:… err:…` text.
 * Null for a deliver_sm that is not a readable receipt.
 */
export function readReceipt(pdu: DeliverSm): ReceiptReport | null {
  if ((Number(pdu.esm_class ?? 0) & MC_DELIVERY_RECEIPT) === 0) return null;
  const text = messageText(pdu.short_message);
  const providerId = stringOf(pdu.receipted_message_id) ?? /\bid:(\S+)/i.exec(text)?.[1];
  const state = typeof pdu.message_state === 'number' ? MESSAGE_STATES[pdu.message_state] : undefined;
  const providerStatus = (state ?? /\bstat:(\w+)/i.exec(text)?.[1])?.toUpperCase();
  if (!providerId || !providerStatus) return null;
  // a state the table does not know is taken as a failure; an intermediate one (en route, accepted) has no outcome
  return { providerId, providerStatus, outcome: Object.hasOwn(OUTCOMES, providerStatus) ? OUTCOMES[providerStatus] : 'undelivered' };
}

function messageText(shortMessage: unknown): string {
  if (typeof shortMessage === 'string') return shortMessage;
  if (Buffer.isBuffer(shortMessage)) return shortMessage.toString('latin1');
  const message = (shortMessage as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') return message;
  return Buffer.isBuffer(message) ? message.toString('latin1') : '';
}

const stringOf = (value: unknown): string | undefined => {
  if (typeof value === 'string' && value.length > 0) return value.replace(/\0+$/, '');
  if (Buffer.isBuffer(value) && value.length > 0) return value.toString('latin1').replace(/\0+$/, '');
  return undefined;
};
