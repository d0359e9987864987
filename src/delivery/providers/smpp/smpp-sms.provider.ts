import { Logger } from '@nestjs/common';
import smpp from 'smpp';
import { segment } from '../../../billing/segments.js';
import { maskRecipient } from '../../../common/redact.js';
import type { ConnectorSettings } from '../../../routing/routing-file.js';
import { Circuit } from '../../circuit.js';
import { PermanentDeliveryError, TransientDeliveryError } from '../../delivery-errors.js';
import type { DeliveryReceipts } from '../../delivery-receipts.js';
import { FlowControl } from '../../flow-control.js';
import type { InboundReceiver } from '../../inbound-messages.js';
import type { RoutingMetrics } from '../../routing.metrics.js';
import type { ConnectorHealth, PartsProgress, SmsConnector } from '../../sms-connector.js';
import type { SmsSubmission } from '../../sms-provider.js';
import type { AttemptOutcome } from '../../submit-log.js';
import { BUSY_STATUSES, flowOutcome, SmppConnection, SubmitUnanswered, type SmppConnectionOptions } from './smpp-connection.js';
import { parseSmppUrl } from './smpp-endpoint.js';
import { readMobileOriginated, type MobileOriginatedPdu } from './smpp-mo.js';
import { readReceipt, type DeliverSm } from './smpp-receipt.js';

const DATA_CODING = { GSM7: 0x00, UCS2: 0x08 } as const;
/** Addresses: TON international / alphanumeric / unknown, NPI ISDN / unknown. */
const TON = { international: 1, unknown: 0, alphanumeric: 5 } as const;
const NPI = { isdn: 1, unknown: 0 } as const;
/** Final receipts, for success and failure. */
const REGISTERED_DELIVERY = 0x01;
/** Answers other than busy ones after which the same submit may succeed later. */
const TRANSIENT_STATUSES = new Set([smpp.ESME_RSYSERR, smpp.ESME_RX_T_APPN]);
/** Busy answers to one part after which it goes back to the outbox, where it may take another connector. */
const MAX_BUSY_ANSWERS = 5;
/** How long a stopping connector lets the submits in flight get their answer. */
const STOP_GRACE_MS = 5_000;

export const DEFAULT_SMPP_OPTIONS: Omit<SmppConnectionOptions, 'window'> = {
  enquireLinkMs: 30_000,
  responseTimeoutMs: 10_000,
  maxReconnectDelayMs: 30_000,
};

/**
 * One SMPP connector of the routing file: `binds` transceiver binds to one
 * SMSC sharing one flow control (window, `tps` token bucket, OTPs first, the
 * rate adapting to busy answers) and one circuit breaker (which a failed
 * bind counts against as a failed submit does). It submits a
 * message as SMPP 3.4 wants it: GSM-7 or UCS-2 as the text needs, long texts
 * as concatenated parts (8-bit reference UDH) cut where billing counts them,
 * a receipt requested for every part, the message's validity in minutes as a
 * relative validity period (else the OTP's expiry). A part the SMSC is too
 * busy to take is sent again after the pause, five times at most. Receipts
 * and inbound messages on any of its binds are made durable, under its id,
 * before the SMSC is acknowledged.
 */
export class SmppSmsProvider implements SmsConnector {
  readonly transport = 'smpp';
  readonly sendsReceipts = true;
  readonly id: string;
  private readonly logger: Logger;
  private readonly binds: SmppConnection[];
  private readonly flow: FlowControl;
  private readonly circuit: Circuit;
  private readonly tps: number | null;
  private drained = false;
  private stopping = false;
  private lastError: string | null = null;
  private changedAt: number;

  constructor(
    settings: ConnectorSettings,
    private readonly receipts: DeliveryReceipts,
    private readonly inbound: InboundReceiver,
    private readonly metrics: RoutingMetrics,
    /** The application's clock (ms since the epoch), which the circuit's 30 s and `since` are read on. */
    private readonly now: () => number,
    options: Omit<SmppConnectionOptions, 'window'> = DEFAULT_SMPP_OPTIONS,
  ) {
    this.id = settings.id;
    this.circuit = new Circuit(now);
    this.changedAt = now();
    this.tps = settings.tps;
    this.logger = new Logger(`${SmppSmsProvider.name}:${settings.id}`);
    this.flow = new FlowControl({ window: settings.window, tps: settings.tps }, () => this.bound());
    const endpoint = parseSmppUrl(settings.url);
    this.binds = Array.from({ length: settings.binds }, () => {
      const bind = new SmppConnection(endpoint, { ...options, window: settings.window }, this.logger, this.flow);
      bind.on('deliver_sm', (pdu: smpp.PDU, respond: (status: number) => void) => void this.onDeliverSm(pdu, respond));
      bind.on('bound', () => this.changed(() => this.circuit.bound()));
      bind.on('down', () => this.changed(() => (this.lastError = 'bind lost')));
      bind.on('unreachable', () => this.failed('SMSC unreachable'));
      return bind;
    });
  }

  available(): boolean {
    return !this.drained && !this.stopping && this.bound() > 0 && this.circuit.allows();
  }

  health(): ConnectorHealth {
    const bound = this.bound();
    const circuit = this.circuit.state;
    return {
      id: this.id,
      healthy: !this.drained && bound > 0 && circuit === 'closed',
      binds: { bound, total: this.binds.length },
      circuit,
      drained: this.drained,
      tps: this.tps,
      rate: Number.isFinite(this.flow.rate) ? Math.round(this.flow.rate * 100) / 100 : null,
      inFlight: this.flow.outstanding,
      lastError: this.lastError,
      since: new Date(Math.max(this.changedAt, this.circuit.since)),
    };
  }

  setDrained(drained: boolean): void {
    if (drained !== this.drained) this.changed(() => (this.drained = drained));
  }

  start(): void {
    for (const bind of this.binds) bind.start();
  }

  /** Takes no more messages, lets those in flight get their answer, then unbinds. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const deadline = Date.now() + STOP_GRACE_MS; this.flow.outstanding > 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.flow.releaseAll();
    await Promise.all(this.binds.map((bind) => bind.stop()));
  }

  onReady(listener: () => void): void {
    for (const bind of this.binds) bind.on('bound', listener);
  }

  /**
   * Submits each part `progress` does not hold yet, adding each accepted one's
   * id to it, so that after a failure the next attempt sends only the rest,
   * under the same reference.
   */
  async submit(sms: SmsSubmission, progress: PartsProgress): Promise<string[]> {
    const { encoding, parts } = segment(sms.text);
    const validity = sms.validityMinutes ? relativeTime(sms.validityMinutes) : sms.validUntil;
    this.circuit.probe();
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
      progress.providerIds.push(await this.submitPart(pdu, sms));
    }
    return progress.providerIds;
  }

  /** One part, sent again after each busy answer, five times at most; resolves with its message id. */
  private async submitPart(pdu: Record<string, unknown>, sms: SmsSubmission): Promise<string> {
    for (let busy = 1; ; busy++) {
      const response = await this.send(pdu, sms);
      const status = response.command_status;
      if (status === smpp.ESME_ROK) {
        this.noted(sms, 'accepted');
        this.circuit.succeeded();
        return String(response.message_id);
      }
      const name = statusName(status);
      if (BUSY_STATUSES.has(status)) {
        this.noted(sms, 'throttled');
        if (busy < MAX_BUSY_ANSWERS) continue;
        throw new TransientDeliveryError(`SMSC answered ${name} ${busy} times in a row`, null, true, 'throttled');
      }
      if (TRANSIENT_STATUSES.has(status)) {
        this.noted(sms, 'refused');
        this.failed(`SMSC answered ${name}`);
        throw new TransientDeliveryError(`SMSC answered ${name}`);
      }
      this.noted(sms, 'rejected');
      this.circuit.succeeded();
      this.logger.warn({ messageId: sms.messageId, to: maskRecipient(sms.to), status: name }, 'SMSC refused the message');
      throw new PermanentDeliveryError(`SMSC answered ${name}`, 'REJECTD', this.id);
    }
  }

  /** One submit_sm through the flow control, on the bound bind with the fewest submits in flight. */
  private async send(pdu: Record<string, unknown>, sms: SmsSubmission): Promise<smpp.PDU> {
    const permit = await this.flow.acquire(sms.bulk);
    const started = performance.now();
    let response: smpp.PDU | undefined;
    try {
      const bind = this.binds.filter((each) => each.state === 'bound').sort((a, b) => a.outstanding - b.outstanding)[0];
      if (!bind) throw new SubmitUnanswered('SMSC not bound', false);
      response = await bind.request(pdu);
      this.metrics.submitSeconds.observe({ connector: this.id }, (performance.now() - started) / 1000);
      return response;
    } catch (error) {
      if (error instanceof SubmitUnanswered && error.sent) {
        this.noted(sms, error.timedOut ? 'timeout' : 'lost');
        this.metrics.resubmitted.inc({ connector: this.id });
        this.failed(error.message);
      }
      throw error;
    } finally {
      this.flow.answered(permit, response ? flowOutcome(response) : 'other');
    }
  }

  private noted(sms: SmsSubmission, outcome: AttemptOutcome): void {
    sms.attempts?.note(this.id, outcome);
    this.metrics.submits.inc({ connector: this.id, outcome });
  }

  private failed(reason: string): void {
    this.changed(() => {
      this.lastError = reason;
      this.circuit.failed();
    });
  }

  private changed(change: () => void): void {
    const before = this.health().healthy;
    change();
    if (this.health().healthy !== before) this.changedAt = this.now();
  }

  private bound(): number {
    return this.binds.filter((bind) => bind.state === 'bound').length;
  }

  /** Stores a receipt or an inbound message, then answers; whatever fails on the way is answered as a failure for now, never thrown. */
  private async onDeliverSm(pdu: smpp.PDU, respond: (status: number) => void): Promise<void> {
    try {
      const receipt = readReceipt(pdu as DeliverSm);
      const message = receipt ? null : readMobileOriginated(pdu as MobileOriginatedPdu);
      if (receipt) this.metrics.receipts.inc({ connector: this.id, status: receipt.providerStatus });
      const store = receipt
        ? () => this.receipts.record({ provider: this.id, ...receipt })
        : message && (() => this.inbound.receive({ provider: this.id, ...message }));
      if (!store) {
        this.logger.log({ esmClass: pdu.esm_class }, 'deliver_sm that is neither a delivery receipt nor an inbound message ignored');
        respond(smpp.ESME_ROK);
        return;
      }
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
