import { AdaptiveRate, type Sent } from './adaptive-rate.js';

/** The pause after a busy answer, doubled each time the SMSC is still busy after one, up to the longest. */
const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 1_000;

export interface FlowSettings {
  /** Submits awaiting their answer at once on each bind. */
  window: number;
  /** Submits per second; null for no limit but the SMSC's. */
  tps: number | null;
}

/** A place in the window, taken by `acquire`; its answer is reported with `answered`. */
export interface Permit {
  /** The decreases before it was sent: an answer to a submit sent before the latest one says nothing new. */
  readonly epoch: number;
  readonly sent: Sent;
}

/**
 * How fast one connector submits, shared by its binds: a window of submits
 * awaiting their answer, a token bucket at the adaptive rate (AdaptiveRate),
 * and two lanes, the priority one served first. A busy answer
 * (ESME_RTHROTTLED, ESME_RMSGQFUL) to a submit sent since the last one holds
 * every submit back (20 ms, doubled while the SMSC stays busy, up to a
 * second) and halves the rate and the window at once; the window grows back
 * by one per window of accepted submits, up to its setting.
 */
export class FlowControl {
  private readonly rateOf: AdaptiveRate;
  private readonly maxWindow: number;
  private windowNow: number;
  private acceptedInWindow = 0;
  private tokens = 1;
  private tokensAt = Date.now();
  private inFlight = 0;
  private epoch = 0;
  private pausedUntil = 0;
  private pausesInARow = 0;
  private readonly waiting = { priority: [] as Array<(permit: Permit) => void>, bulk: [] as Array<(permit: Permit) => void> };
  private timer: NodeJS.Timeout | undefined;

  constructor(
    settings: FlowSettings,
    /** Binds able to take submits now: the window is per bind. */
    private readonly binds: () => number = () => 1,
  ) {
    this.rateOf = new AdaptiveRate(settings.tps ?? Infinity);
    this.maxWindow = settings.window;
    this.windowNow = settings.window;
  }

  /** Submits per second allowed now (Infinity: no limit). */
  get rate(): number {
    return this.rateOf.value;
  }

  /** Submits awaiting their answer allowed now on each bind. */
  get window(): number {
    return this.windowNow;
  }

  get outstanding(): number {
    return this.inFlight;
  }

  /** Resolves once this submit may go: a priority submit before every bulk one that waits. */
  acquire(bulk: boolean): Promise<Permit> {
    return new Promise((resolve) => {
      this.waiting[bulk ? 'bulk' : 'priority'].push(resolve);
      this.pump();
    });
  }

  /** The submit's answer came (or never will): its place is free. `busy` when the SMSC asked to slow down. */
  answered(permit: Permit, outcome: 'accepted' | 'busy' | 'other'): void {
    this.inFlight--;
    const now = Date.now();
    const fresh = permit.epoch === this.epoch;
    if (outcome === 'accepted') {
      this.rateOf.accepted(permit.sent, now);
      if (fresh) this.widen();
    } else if (outcome === 'busy' && fresh) {
      this.rateOf.busy(permit.sent, now);
      this.slowDown(now);
    } else {
      this.rateOf.unanswered(permit.sent, now);
      if (fresh) this.pausesInARow = 0;
    }
    this.pump();
  }

  /** A bind came up: the window it brings may let waiting submits go. */
  widened(): void {
    this.pump();
  }

  /** Lets go every waiting submit, each with an epoch that no answer can move (the connector is gone). */
  releaseAll(): void {
    clearTimeout(this.timer);
    for (const resolve of [...this.waiting.priority.splice(0), ...this.waiting.bulk.splice(0)]) {
      this.inFlight++;
      resolve({ epoch: -1, sent: this.rateOf.sent(Date.now()) });
    }
  }

  private slowDown(now: number): void {
    this.tokens = Math.min(this.tokens, 1);
    this.windowNow = Math.max(1, Math.floor(this.windowNow / 2));
    this.acceptedInWindow = 0;
    this.epoch++;
    this.pausedUntil = now + Math.min(FIRST_PAUSE_MS * 2 ** this.pausesInARow, LONGEST_PAUSE_MS);
    this.pausesInARow++;
  }

  private widen(): void {
    this.pausesInARow = 0;
    if (this.windowNow < this.maxWindow && ++this.acceptedInWindow >= this.windowNow) {
      this.windowNow++;
      this.acceptedInWindow = 0;
    }
  }

  /** Hands places to waiting submits while the pause, the bucket and the window allow; otherwise waits for the first of them. */
  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      const lane = this.waiting.priority.length > 0 ? this.waiting.priority : this.waiting.bulk;
      if (lane.length === 0 || this.inFlight >= this.windowNow * Math.max(1, this.binds())) return;
      const now = Date.now();
      const wait = Math.max(this.pausedUntil - now, this.tokenWait(now));
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), Math.ceil(wait));
        return;
      }
      this.inFlight++;
      if (Number.isFinite(this.rateOf.value)) this.tokens -= 1;
      lane.shift()!({ epoch: this.epoch, sent: this.rateOf.sent(now) });
    }
  }

  /** Milliseconds until a token is there (0: now). The bucket holds 10 ms of tokens, at least one: a steady stream, not bursts. */
  private tokenWait(now: number): number {
    const rate = this.rateOf.value;
    if (!Number.isFinite(rate)) return 0;
    this.tokens = Math.min(Math.max(1, rate / 100), this.tokens + ((now - this.tokensAt) * rate) / 1000);
    this.tokensAt = now;
    return this.tokens >= 1 ? 0 : ((1 - this.tokens) * 1000) / rate;
  }
}
