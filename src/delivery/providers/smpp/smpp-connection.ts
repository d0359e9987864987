import { EventEmitter } from 'node:events';
import type { Logger } from '@nestjs/common';
import smpp from 'smpp';
import { TransientDeliveryError } from '../../delivery-errors.js';
import type { SmppEndpoint } from './smpp-endpoint.js';

export type BindState = 'connecting' | 'bound' | 'down' | 'stopped';

export interface SmppConnectionOptions {
  /** Submits awaiting their response at once. */
  window: number;
  enquireLinkMs: number;
  responseTimeoutMs: number;
  maxReconnectDelayMs: number;
}

type Pending = { reject: (error: Error) => void };

/**
 * One long-lived SMPP 3.4 transceiver bind: reconnects with exponential
 * backoff when the SMSC drops it, keeps it alive with enquire_link, answers
 * the SMSC's enquire_link and unbind, bounds the submits in flight to a
 * window, and holds submits back while the SMSC says it is throttled.
 * Emits `bound` after each successful bind and `deliver_sm` (pdu, respond).
 */
export class SmppConnection extends EventEmitter {
  private session: smpp.Session | undefined;
  private bindState: BindState = 'down';
  private reconnects = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly pending = new Set<Pending>();
  private throttledUntil = 0;

  constructor(
    private readonly endpoint: SmppEndpoint,
    private readonly options: SmppConnectionOptions,
    private readonly logger: Logger,
  ) {
    super();
  }

  get state(): BindState {
    return this.bindState;
  }

  /** Submits sent and not yet answered. */
  get outstanding(): number {
    return this.inFlight;
  }

  start(): void {
    if (this.bindState === 'stopped') return;
    this.bindState = 'connecting';
    const session = smpp.connect({
      url: `${this.endpoint.tls ? 'ssmpp' : 'smpp'}://${this.endpoint.host}:${this.endpoint.port}`,
      auto_enquire_link_period: this.options.enquireLinkMs,
    });
    this.session = session;
    session.on('connect', () => this.bind(session));
    session.on('secureConnect', () => this.bind(session));
    session.on('enquire_link', (pdu: smpp.PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: smpp.PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('deliver_sm', (pdu: smpp.PDU) =>
      this.emit('deliver_sm', pdu, (commandStatus: number) => session.send(pdu.response({ command_status: commandStatus }))),
    );
    session.on('error', (error: Error) => this.logger.warn({ err: error.message }, 'SMPP connection error'));
    session.on('close', () => this.onClose(session));
  }

  /** Sends one submit_sm within the window and resolves with its response. */
  async submit(parameters: Record<string, unknown>): Promise<smpp.PDU> {
    await this.enterWindow();
    try {
      const wait = this.throttledUntil - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return await this.request((session, callback) => session.submit_sm(parameters, callback));
    } finally {
      this.leaveWindow();
    }
  }

  /** The SMSC answered ESME_RTHROTTLED: hold every submit back for a while. */
  throttle(ms: number): void {
    this.throttledUntil = Math.max(this.throttledUntil, Date.now() + ms);
  }

  /** Unbinds politely (answered or not within a second) and stops reconnecting. */
  async stop(): Promise<void> {
    const previous = this.bindState;
    this.bindState = 'stopped';
    clearTimeout(this.reconnectTimer);
    const session = this.session;
    // down: that session is closed already, and would never report closing again
    if (!session || previous === 'down') return;
    const wasBound = previous === 'bound';
    if (wasBound) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        if (!session.unbind(() => (clearTimeout(timer), resolve()))) resolve();
      });
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => session.destroy(() => resolve()), 1000);
      session.close(() => (clearTimeout(timer), resolve()));
    });
  }

  private bind(session: smpp.Session): void {
    session.bind_transceiver(
      { system_id: this.endpoint.systemId, password: this.endpoint.password, interface_version: 0x34 },
      (response: smpp.PDU) => {
        if (response.command_status !== smpp.ESME_ROK) {
          this.logger.error({ commandStatus: response.command_status }, 'SMPP bind refused');
          session.close();
          return;
        }
        this.reconnects = 0;
        this.bindState = 'bound';
        this.logger.log({ host: this.endpoint.host, port: this.endpoint.port }, 'SMPP bound as transceiver');
        this.emit('bound');
      },
    );
  }

  private onClose(session: smpp.Session): void {
    if (session !== this.session) return;
    for (const request of this.pending) request.reject(new TransientDeliveryError('SMPP connection lost'));
    this.pending.clear();
    if (this.bindState === 'stopped') return;
    this.bindState = 'down';
    const delay = Math.min(1000 * 2 ** this.reconnects, this.options.maxReconnectDelayMs);
    this.reconnects++;
    this.logger.warn({ retryInMs: delay }, 'SMPP connection closed; reconnecting');
    this.reconnectTimer = setTimeout(() => this.start(), delay);
    this.reconnectTimer.unref();
  }

  private request(send: (session: smpp.Session, callback: (response: smpp.PDU) => void) => boolean): Promise<smpp.PDU> {
    const session = this.session;
    if (this.bindState !== 'bound' || !session) return Promise.reject(new TransientDeliveryError('SMSC not bound'));
    return new Promise<smpp.PDU>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.pending.delete(entry);
      };
      const entry: Pending = {
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = setTimeout(() => entry.reject(new TransientDeliveryError('no response from the SMSC')), this.options.responseTimeoutMs);
      this.pending.add(entry);
      const sent = send(session, (response) => {
        settle();
        resolve(response);
      });
      if (!sent) entry.reject(new TransientDeliveryError('SMPP connection not writable'));
    });
  }

  private async enterWindow(): Promise<void> {
    while (this.inFlight >= this.options.window) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
  }

  private leaveWindow(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }
}
