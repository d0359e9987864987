/** The adaptive rate never goes below this (submits per second). */
const MIN_RATE = 1;
/** After a busy answer the rate climbs back to this share of the rate that drew it… */
const CEILING_SHARE = 0.9;
/** …by this share of that ceiling per accepted submit, then creeps past it by this share per accepted submit. */
const RECOVERY_STEP = 0.25;
const PROBE_STEP = 0.001;
/** A busy answer at this share of a rate the SMSC took twice in a row within the proof's life is noise, not a quota. */
const NOISE_SHARE = 0.95;
const PROOF_MS = 5_000;
/** The latest submits whose times give a connector with no `tps` its current rate. */
const RATE_SAMPLES = 64;

/** One submit as the rate sees it: when it was sent, its neighbours in send order, and whether the SMSC took it. */
export interface Sent {
  readonly at: number;
  accepted: boolean | null;
  previous: Sent | null;
  next: Sent | null;
}

/**
 * A connector's submit rate, adapting to the SMSC's busy answers (additive
 * increase, multiplicative decrease). A busy answer halves the rate at once,
 * and notes 90 % of the rate that drew it as the ceiling; accepted submits
 * add a quarter of the ceiling each, back up to it, then a thousandth each
 * past it, up to `tps`. So an SMSC that enforces a quota by refusals gets a steady
 * stream just under it. A busy answer at a rate well below one the SMSC took
 * two submits in a row at, within the last five seconds, says the SMSC is
 * busy, not that the rate is too high: it halves the rate but keeps the
 * ceiling, so an SMSC that refuses now and then whatever the rate does not
 * slow a connector down for good.
 */
export class AdaptiveRate {
  private current: number;
  private ceiling: number;
  private last: Sent | null = null;
  private proven = 0;
  private provenAt = -Infinity;
  private readonly sentTimes = new Array<number>(RATE_SAMPLES).fill(-Infinity);
  private sentCount = 0;

  /** `max`: the connector's `tps`, Infinity for none. */
  constructor(private readonly max: number) {
    this.current = max;
    this.ceiling = max;
  }

  /** Submits per second allowed now (Infinity: no limit). */
  get value(): number {
    return this.current;
  }

  sent(at: number): Sent {
    const sent: Sent = { at, accepted: null, previous: this.last, next: null };
    if (this.last) this.last.next = sent;
    this.last = sent;
    this.sentTimes[this.sentCount++ % RATE_SAMPLES] = at;
    return sent;
  }

  accepted(sent: Sent, now: number): void {
    this.answered(sent, true, now);
    if (this.current < this.ceiling) this.current = Math.min(this.ceiling, this.current + this.ceiling * RECOVERY_STEP);
    else if (this.current < this.max) this.ceiling = this.current = Math.min(this.max, this.current + this.ceiling * PROBE_STEP);
  }

  busy(sent: Sent, now: number): void {
    this.answered(sent, false, now);
    const effective = Number.isFinite(this.current) ? this.current : this.recent(now);
    const noise = now - this.provenAt <= PROOF_MS && effective <= this.proven * NOISE_SHARE;
    if (!noise) this.ceiling = Math.max(MIN_RATE, effective * CEILING_SHARE);
    this.current = Math.max(MIN_RATE, effective / 2);
  }

  /** A submit that got no answer from the SMSC (lost, timed out): says nothing of the rate. */
  unanswered(sent: Sent, now: number): void {
    this.answered(sent, false, now);
  }

  /** Notes the answer, a rate proven by two submits in a row taken, and lets go of neighbours that need it no more. */
  private answered(sent: Sent, accepted: boolean, now: number): void {
    sent.accepted = accepted;
    if (accepted && sent.previous?.accepted) this.prove(sent.previous.at, sent.at, now);
    if (accepted && sent.next?.accepted) this.prove(sent.at, sent.next.at, now);
    if (sent.previous && sent.previous.accepted !== null) sent.previous = sent.previous.next = null;
    if (sent.next && sent.next.accepted !== null) sent.next = sent.next.previous = null;
  }

  private prove(first: number, second: number, now: number): void {
    const rate = 1000 / Math.max(0.1, second - first);
    if (rate < this.proven && now - this.provenAt <= PROOF_MS) return;
    this.proven = rate;
    this.provenAt = now;
  }

  /** Submits per second among the latest ones sent within the last second. */
  private recent(now: number): number {
    const times = this.sentTimes.filter((at) => at > now - 1000);
    if (times.length < 2) return MIN_RATE;
    return Math.max(MIN_RATE, ((times.length - 1) * 1000) / Math.max(1, Math.max(...times) - Math.min(...times)));
  }
}
