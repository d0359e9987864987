import { EventEmitter } from 'node:events';
import type { Logger } from '@nestjs/common';
import smpp from 'smpp';
import { TransientDeliveryError } from '../../delivery-errors.js';
import { FlowControl } from '../../flow-control.js';
import type { SmppEndpoint } from './smpp-endpoint.js';

export type BindState = 'connecting' | 'bound' | 'down' | 'stopped';

export interface SmppConnectionOptions {
  /** Submits awaiting their response at once (when the bind has a flow control of its own). */
  window: number;
  enquireLinkMs: number;
  responseTimeoutMs: number;
  maxReconnectDelayMs: number;
}

type Pending = { reject: (error: Error) => void };

/** Answers by which the SMSC asks us to slow down: the same submit may be sent again after a pause. */
export const BUSY_STATUSES: ReadonlySet<number> = new Set([smpp.ESME_RTHROTTLED, smpp.ESME_RMSGQFUL]);

/**
 * A submit that got no answer: never sent (the bind was down), or sent and
 * then lost with its bind or left unanswered past the response timeout, when
 * the SMSC may or may not have taken it.
 */
export class SubmitUnanswered extends TransientDeliveryError {
  constructor(
    message: string,
    readonly sent: boolean,
    readonly timedOut = false,
  ) {
    super(message, null, false, timedOut ? 'timeout' : 'lost');
  }
}

/** How a submit's answer moves the flow control: busy answers slow it down, acceptances speed it up. */
export const flowOutcome = (response: smpp.PDU): 'accepted' | 'busy' | 'other' =>
  response.command_status === smpp.ESME_ROK ? 'accepted' : BUSY_STATUSES.has(response.command_status) ? 'busy' : 'other';

/**
 * One long-lived SMPP 3.4 transceiver bind: reconnects with exponential
 * backoff when the SMSC drops it, keeps it alive with enquire_link, answers
 * the SMSC's enquire_link and unbind. `submit` goes through a flow control
 * (FlowControl: a window, bulk submits behind the others, a pause after a busy
 * answer), its own or the one its connector's binds share; `request` sends at
 * once. Emits `bound` after each successful bind, `down` when it drops,
 * `unreachable` when an attempt to bind fails, and `deliver_sm` (pdu, respond).
 */
export class SmppConnection extends EventEmitter {
  private session: smpp.Session | undefined;
  private bindState: BindState = 'down';
  private reconnects = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly pending = new Set<Pending>();

  constructor(
    private readonly endpoint: SmppEndpoint,
    private readonly options: SmppConnectionOptions,
    private readonly logger: Logger,
    private readonly flow = new FlowControl({ window: options.window, tps: null }),
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

  /** Sends one submit_sm once its flow control lets it go, and resolves with its response. */
  async submit(parameters: Record<string, unknown>, bulk: boolean): Promise<smpp.PDU> {
    const permit = await this.flow.acquire(bulk);
    let response: smpp.PDU | undefined;
    try {
      response = await this.request(parameters);
      return response;
    } finally {
      this.flow.answered(permit, response ? flowOutcome(response) : 'other');
    }
  }

  /** Sends one submit_sm now and resolves with its response. */
  async request(parameters: Record<string, unknown>): Promise<smpp.PDU> {
    this.inFlight++;
    try {
      return await this.exchange((session, callback) => session.submit_sm(parameters, callback));
    } finally {
      this.inFlight--;
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
        this.flow.widened();
        this.logger.log({ host: this.endpoint.host, port: this.endpoint.port }, 'SMPP bound as transceiver');
        this.emit('bound');
      },
    );
  }

  private onClose(session: smpp.Session): void {
    if (session !== this.session) return;
    for (const request of this.pending) request.reject(new SubmitUnanswered('SMPP connection lost', true));
    this.pending.clear();
    if (this.bindState === 'stopped') return;
    const wasBound = this.bindState === 'bound';
    this.bindState = 'down';
    this.emit(wasBound ? 'down' : 'unreachable');
    const delay = Math.min(1000 * 2 ** this.reconnects, this.options.maxReconnectDelayMs);
    this.reconnects++;
    this.logger.warn({ retryInMs: delay }, 'SMPP connection closed; reconnecting');
    this.reconnectTimer = setTimeout(() => this.start(), delay);
    this.reconnectTimer.unref();
  }

  private exchange(send: (session: smpp.Session, callback: (response: smpp.PDU) => void) => boolean): Promise<smpp.PDU> {
    const session = this.session;
    if (this.bindState !== 'bound' || !session) return Promise.reject(new SubmitUnanswered('SMSC not bound', false));
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
      const timer = setTimeout(() => entry.reject(new SubmitUnanswered('no response from the SMSC', true, true)), this.options.responseTimeoutMs);
      this.pending.add(entry);
      const sent = send(session, (response) => {
        settle();
        resolve(response);
      });
      if (!sent) entry.reject(new SubmitUnanswered('SMPP connection not writable', false));
    });
  }
}
