import { randomInt } from 'node:crypto';
import { Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import smpp from 'smpp';
import { segment } from '../../../billing/segments.js';
import { maskRecipient } from '../../../common/redact.js';
import { PermanentDeliveryError, TransientDeliveryError } from '../../delivery-errors.js';
import type { DeliveryReceipts } from '../../delivery-receipts.js';
import type { InboundReceiver } from '../../inbound-messages.js';
import type { SmsAccepted, SmsProvider, SmsSubmission } from '../../sms-provider.js';
import { BUSY_STATUSES, SmppConnection, type SmppConnectionOptions } from './smpp-connection.js';
import type { SmppEndpoint } from './smpp-endpoint.js';
import { readMobileOriginated, type MobileOriginatedPdu } from './smpp-mo.js';
import { readReceipt, type DeliverSm } from './smpp-receipt.js';

const DATA_CODING = { GSM7: 0x00, UCS2: 0x08 } as const;
/** Addresses: TON international / alphanumeric / unknown, NPI ISDN / unknown. */
const TON = { international: 1, unknown: 0, alphanumeric: 5 } as const;
const NPI = { isdn: 1, unknown: 0 } as const;
/** Final receipts, for success and failure. */
const REGISTERED_DELIVERY = 0x01;
/** Answers after which the same submit may succeed later. */
const TRANSIENT_STATUSES = new Set([...BUSY_STATUSES, smpp.ESME_RSYSERR, smpp.ESME_RX_T_APPN]);
/** Busy answers to one part after which it goes back to the outbox, to be tried again later, rather than at once. */
const MAX_BUSY_ANSWERS = 5;

/** The parts of a long message the SMSC has taken so far. */
interface Progress {
  reference: number;
  providerIds: string[];
}

export const DEFAULT_SMPP_OPTIONS: Omit<SmppConnectionOptions, 'window'> = {
  enquireLinkMs: 30_000,
  responseTimeoutMs: 10_000,
  maxReconnectDelayMs: 30_000,
};

/**
 * SMS over SMPP 3.4 to an SMSC: GSM-7 or UCS-2 as the text needs, long texts
 * as concatenated parts (8-bit reference UDH) cut where billing counts them,
 * a receipt requested for every part, the message's validity in minutes as a
 * relative validity period (else the OTP's expiry). A part the SMSC is too
 * busy to take is sent again after the connection's pause. Delivery receipts
 * and inbound messages are made durable before the SMSC is acknowledged.
 */
export class SmppSmsProvider implements SmsProvider, OnModuleInit, BeforeApplicationShutdown {
  readonly name = 'smpp';
  readonly sendsReceipts = true;
  private readonly logger = new Logger(SmppSmsProvider.name);
  private readonly connection: SmppConnection;

  constructor(
    endpoint: SmppEndpoint,
    window: number,
    private readonly receipts: DeliveryReceipts,
    private readonly inbound: InboundReceiver,
    options: Omit<SmppConnectionOptions, 'window'> = DEFAULT_SMPP_OPTIONS,
  ) {
    this.connection = new SmppConnection(endpoint, { ...options, window }, this.logger);
    this.connection.on('deliver_sm', (pdu: smpp.PDU, respond: (status: number) => void) => void this.onDeliverSm(pdu, respond));
  }

  get state() {
    return this.connection.state;
  }

  get outstanding(): number {
    return this.connection.outstanding;
  }

  onModuleInit(): void {
    this.connection.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.connection.stop();
  }

  onReady(listener: () => void): void {
    this.connection.on('bound', listener);
  }

  /**
   * Submits each part not yet accepted. A part the SMSC is too busy to take
   * is sent again once the connection's pause is over (four times at most,
   * each a retry); when a later part fails, the parts already accepted are
   * handed back as the resume state, so that a retry sends only the rest,
   * under the same concatenation reference.
   */
  async submit(sms: SmsSubmission): Promise<SmsAccepted> {
    const { encoding, parts } = segment(sms.text);
    const progress: Progress = sms.resume ? (JSON.parse(sms.resume) as Progress) : { reference: randomInt(256), providerIds: [] };
    const validity = sms.validityMinutes ? relativeTime(sms.validityMinutes) : sms.validUntil;
    let retries = 0;
    for (let index = progress.providerIds.length; index < parts.length; index++) {
      const pdu = {
        ...sourceAddress(sms.from),
        dest_addr_ton: TON.international,
        dest_addr_npi: NPI.isdn,
        destination_addr: sms.to.replace(/^\+/, ''),
        registered_delivery: REGISTERED_DELIVERY,
        data_coding: DATA_CODING[encoding],
        ...(validity ? { validity_period: validity } : {}),
        short_message:
          parts.length === 1
            ? parts[index]
            : { udh: Buffer.from([0x05, 0x00, 0x03, progress.reference, parts.length, index + 1]), message: parts[index] },
      };
      try {
        let response = await this.connection.submit(pdu, sms.bulk);
        for (let busy = 1; BUSY_STATUSES.has(response.command_status) && busy < MAX_BUSY_ANSWERS; busy++) {
          retries++;
          response = await this.connection.submit(pdu, sms.bulk);
        }
        this.check(response.command_status, sms);
        progress.providerIds.push(String(response.message_id));
      } catch (error) {
        if (error instanceof TransientDeliveryError && progress.providerIds.length > 0) {
          throw new TransientDeliveryError(error.message, JSON.stringify(progress));
        }
        throw error;
      }
    }
    return { providerIds: progress.providerIds, retries };
  }

  private check(commandStatus: number, sms: SmsSubmission): void {
    if (commandStatus === smpp.ESME_ROK) return;
    const name = statusName(commandStatus);
    if (TRANSIENT_STATUSES.has(commandStatus)) throw new TransientDeliveryError(`SMSC answered ${name}`);
    this.logger.warn({ messageId: sms.messageId, to: maskRecipient(sms.to), status: name }, 'SMSC refused the message');
    throw new PermanentDeliveryError(`SMSC answered ${name}`, 'REJECTD');
  }

  private async onDeliverSm(pdu: smpp.PDU, respond: (status: number) => void): Promise<void> {
    const receipt = readReceipt(pdu as DeliverSm);
    const message = receipt ? null : readMobileOriginated(pdu as MobileOriginatedPdu);
    const store = receipt
      ? () => this.receipts.record({ provider: this.name, ...receipt })
      : message && (() => this.inbound.receive({ provider: this.name, ...message }));
    if (!store) {
      this.logger.log({ esmClass: pdu.esm_class }, 'deliver_sm that is neither a delivery receipt nor an inbound message ignored');
      respond(smpp.ESME_ROK);
      return;
    }
    try {
      await store();
      respond(smpp.ESME_ROK);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'deliver_sm not stored; the SMSC will offer it again');
      respond(smpp.ESME_RX_T_APPN);
    }
  }
}

/** SMPP 3.4 §7.1.1 relative time, `YYMMDDhhmmss000R`: counted by the SMSC from when it takes the message. */
export function relativeTime(minutes: number): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `0000${two(Math.floor(minutes / 1440))}${two(Math.floor((minutes % 1440) / 60))}${two(minutes % 60)}00000R`;
}

function sourceAddress(from: string) {
  if (/^\+\d+$/.test(from)) return { source_addr_ton: TON.international, source_addr_npi: NPI.isdn, source_addr: from.slice(1) };
  if (/^\d+$/.test(from)) return { source_addr_ton: TON.unknown, source_addr_npi: NPI.isdn, source_addr: from };
  return { source_addr_ton: TON.alphanumeric, source_addr_npi: NPI.unknown, source_addr: from };
}

const statusName = (status: number): string =>
  Object.entries(smpp.errors).find(([, value]) => value === status)?.[0] ?? `0x${status.toString(16).padStart(4, '0')}`;
