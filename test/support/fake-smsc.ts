import type { AddressInfo } from 'node:net';
import smpp from 'smpp';

export interface ReceivedSubmit {
  messageId: string;
  sourceAddr: string;
  sourceTon: number;
  destinationAddr: string;
  registeredDelivery: number;
  dataCoding: number;
  esmClass: number;
  /** Decoded text of this part. */
  text: string;
  /** The UDH information elements, when the part has some. */
  udh: Buffer[];
  validityPeriod: unknown;
  /** When the SMSC received it (ms since the epoch). */
  receivedAt: number;
}

/** What the SMSC answers to the next submits: each entry is used once, then it accepts. */
export type SubmitAnswer = number;

/**
 * An SMSC on loopback, built on the `smpp` package's server side: accepts
 * transceiver binds with the given credentials, records every submit_sm,
 * answers with chosen statuses, and sends delivery receipts and inbound messages on demand.
 */
export class FakeSmsc {
  /** The submits taken, each with the message id it was given. */
  readonly submits: ReceivedSubmit[] = [];
  /** Every submit_sm received, taken or answered otherwise. */
  received = 0;
  /** When each submit_sm arrived (ms since the epoch), taken or not. */
  readonly arrivals: number[] = [];
  binds = 0;
  unbinds = 0;
  /** How long the SMSC takes to answer each accepted submit. */
  submitDelayMs = 0;
  private readonly answers: SubmitAnswer[] = [];
  private every: { count: number; status: SubmitAnswer; after: number } | null = null;
  /** Submits received past this count are neither taken nor answered (an SMSC that stopped answering). */
  private silentAfter: number | null = null;
  /** Accepts a submit only this long after the last one it accepted (a quota of submits per second), as Jasmin does. */
  private minIntervalMs = 0;
  private lastTakenAt = 0;
  /** Submits still taken before the SMSC dies (null: it does not). */
  private takenBeforeDeath: number | null = null;
  private server: smpp.Server | undefined;
  /** The message id the next taken submit gets (counted up from there). */
  nextMessageId = 1000;
  port = 0;

  constructor(
    private readonly systemId = 'otp',
    private readonly password = 'secret',
  ) {}

  get url(): string {
    return `smpp://${this.systemId}:${this.password}@127.0.0.1:${this.port}`;
  }

  get sessions(): smpp.Session[] {
    return this.server?.sessions ?? [];
  }

  async start(port = this.port): Promise<void> {
    this.server = smpp.createServer((session) => this.serve(session));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Closes the listener and every session: the SMSC is gone. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const session of [...server.sessions]) session.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next submits get these command statuses (e.g. smpp.ESME_RTHROTTLED), one each. */
  answerNext(...statuses: SubmitAnswer[]): void {
    this.answers.push(...statuses);
  }

  /** Every `count`-th submit_sm received from now on (counting all of them) gets this status instead of being taken. */
  answerEvery(count: number, status: SubmitAnswer): void {
    this.every = { count, status, after: this.received };
  }

  /** After `count` more submits, leaves every submit_sm unanswered and untaken until `answerAgain`. */
  stopAnsweringAfter(count: number): void {
    this.silentAfter = this.received + count;
  }

  answerAgain(): void {
    this.silentAfter = null;
  }

/**
   * Refuses with ESME_RTHROTTLED every submit that comes less than a `perSecond`th of a second after the last one
   * it took, as Jasmin enforces a user's throughput quota.
   */
  enforceRate(perSecond: number): void {
    this.minIntervalMs = 1000 / perSecond;
  }

  /** Takes `count` more submits, answers the last, and dies at once: every session and the listener closed. */
  dieAfter(count: number): void {
    this.takenBeforeDeath = count;
  }

  /** Sends a delivery receipt for a message id on the first bound session. */
  async sendReceipt(messageId: string, stat: string, options: { tlv?: boolean } = {}): Promise<number> {
    const session = this.sessions[0];
    if (!session) throw new Error('no bound session to send the receipt on');
    const text = `id:${messageId} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2611220800 done date:2611220801 stat:${stat} err:000 text:`;
    const states: Record<string, number> = { DELIVRD: 2, EXPIRED: 3, DELETED: 4, UNDELIV: 5, ACCEPTD: 6, UNKNOWN: 7, REJECTD: 8 };
    return new Promise((resolve) =>
      session.deliver_sm(
        {
          source_addr: '2250707070707',
          destination_addr: 'OTP',
          esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
          short_message: text,
          ...(options.tlv ? { receipted_message_id: messageId, message_state: states[stat] } : {}),
        },
        (response) => resolve(response.command_status),
      ),
    );
  }

  /**
   * Sends a mobile-originated message (a recipient writing to `to`) on the
   * first bound session; resolves with the command status of the answer. The
   * `smpp` package codes the text as GSM, Latin-1 or UCS-2 as it needs, unless `dataCoding` says.
   */
  async sendMo(from: string, to: string, text: string, options: { dataCoding?: number } = {}): Promise<number> {
    const session = this.sessions[0];
    if (!session) throw new Error('no bound session to send the message on');
    return new Promise((resolve) =>
      session.deliver_sm(
        {
          source_addr_ton: 1,
          source_addr_npi: 1,
          source_addr: from.replace(/^\+/, ''),
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: to.replace(/^\+/, ''),
          short_message: text,
          ...(options.dataCoding === undefined ? {} : { data_coding: options.dataCoding }),
        },
        (response) => resolve(response.command_status),
      ),
    );
  }

  private serve(session: smpp.Session): void {
    // answers go out as they are ready, as an SMSC's do
    session.socket.setNoDelay(true);
    session.on('bind_transceiver', (pdu: smpp.PDU) => {
      const ok = pdu.system_id === this.systemId && pdu.password === this.password;
      session.send(pdu.response({ command_status: ok ? smpp.ESME_ROK : smpp.ESME_RBINDFAIL }));
      if (ok) this.binds++;
      else session.close();
    });
    session.on('enquire_link', (pdu: smpp.PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: smpp.PDU) => {
      this.unbinds++;
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: smpp.PDU) => {
      this.received++;
      if (this.silentAfter !== null && this.received > this.silentAfter) return;
      const now = Date.now();
      this.arrivals.push(now);
      const status =
        this.answers.shift() ??
        (this.every && (this.received - this.every.after) % this.every.count === 0 ? this.every.status : null) ??
        (now - this.lastTakenAt < this.minIntervalMs ? smpp.ESME_RTHROTTLED : smpp.ESME_ROK);
      if (status !== smpp.ESME_ROK) {
        session.send(pdu.response({ command_status: status }));
        return;
      }
      const messageId = String(this.nextMessageId++);
      const message = pdu.short_message as { message?: unknown; udh?: Buffer[] };
      this.submits.push({
        messageId,
        sourceAddr: String(pdu.source_addr),
        sourceTon: Number(pdu.source_addr_ton),
        destinationAddr: String(pdu.destination_addr),
        registeredDelivery: Number(pdu.registered_delivery),
        dataCoding: Number(pdu.data_coding),
        esmClass: Number(pdu.esm_class),
        text: typeof message.message === 'string' ? message.message : String(message.message ?? ''),
        udh: message.udh ?? [],
        validityPeriod: pdu.validity_period,
        receivedAt: now,
      });
      this.lastTakenAt = now;
      const respond = () => session.send(pdu.response({ message_id: messageId }));
      if (this.submitDelayMs > 0) setTimeout(respond, this.submitDelayMs);
      else respond();
      if (this.takenBeforeDeath !== null && --this.takenBeforeDeath === 0) {
        this.takenBeforeDeath = null;
        void this.stop();
      }
    });
    session.on('error', () => undefined);
  }
}
