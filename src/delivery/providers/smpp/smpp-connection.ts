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

/** Answers by which the SMSC asks us to slow down: the same submit may be sent again after a pause. */
export const BUSY_STATUSES: ReadonlySet<number> = new Set([smpp.ESME_RTHROTTLED, smpp.ESME_RMSGQFUL]);
/** The pause after a busy answer, doubled each time the SMSC is still busy after one, up to the longest. */
const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 1_000;

/**
 * One long-lived SMPP 3.4 transceiver bind: reconnects with exponential
 * backoff when the SMSC drops it, keeps it alive with enquire_link, answers
 * the SMSC's enquire_link and unbind, bounds the submits in flight to a
 * window (bulk submits wait behind the others for a place), and holds every
 * submit back for a while when the SMSC answers that it is throttled or its
 * queue is full: 20 ms, doubled while it stays busy, up to a second.
 * Emits `bound` after each successful bind and `deliver_sm` (pdu, respond).
 */
export class SmppConnection extends EventEmitter {
  private session: smpp.Session | undefined;
  private bindState: BindState = 'down';
  private reconnects = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  /** Submits waiting for a place in the window, by lane. */
  private readonly waiting = { priority: [] as Array<() => void>, bulk: [] as Array<() => void> };
  private readonly pending = new Set<Pending>();
  /** Submits wait until then; pauses so far, and those in a row without an answer that the SMSC was not busy. */
  private pausedUntil = 0;
  private pauses = 0;
  private pausesInARow = 0;

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
      // each PDU is written as soon as it is ready: Nagle's algorithm would hold a submit back until the previous one is acknowledged
      noDelay: true,
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

  /** Sends one submit_sm within the window, once any pause is over, and resolves with its response. */
  async submit(parameters: Record<string, unknown>, bulk: boolean): Promise<smpp.PDU> {
    await this.enterWindow(bulk);
    try {
      for (let wait = this.pausedUntil - Date.now(); wait > 0; wait = this.pausedUntil - Date.now()) {
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const sentAfter = this.pauses;
      const response = await this.request((session, callback) => session.submit_sm(parameters, callback));
      this.pace(response.command_status, sentAfter);
      return response;
    } finally {
      this.leaveWindow();
    }
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

  /**
   * A busy answer to a submit sent since the last pause began starts a longer
   * one; answers to submits already on their way when it began say nothing new.
   * Any other answer to such a submit ends the series.
   */
  private pace(commandStatus: number, sentAfter: number): void {
    if (sentAfter !== this.pauses) return;
    if (!BUSY_STATUSES.has(commandStatus)) {
      this.pausesInARow = 0;
      return;
    }
    const pauseMs = Math.min(FIRST_PAUSE_MS * 2 ** this.pausesInARow, LONGEST_PAUSE_MS);
    this.pauses++;
    this.pausesInARow++;
    this.pausedUntil = Date.now() + pauseMs;
  }

  /** Takes a place in the window, or waits for one to be handed over (the priority lane's first). */
  private async enterWindow(bulk: boolean): Promise<void> {
    // nobody waits while the window has room: a place is handed straight to a waiting submit
    if (this.inFlight < this.options.window) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting[bulk ? 'bulk' : 'priority'].push(resolve));
  }

  private leaveWindow(): void {
    const next = this.waiting.priority.shift() ?? this.waiting.bulk.shift();
    if (next) next();
    else this.inFlight--;
  }
}
