export type CircuitState = 'closed' | 'open' | 'half_open';

/** Consecutive transient failures or response timeouts that open the circuit. */
const FAILURES_TO_OPEN = 3;
/** An open circuit lets one submit through (half-open) after this long, or at the next bind. */
const OPEN_MS = 30_000;
/** A probe with no outcome by then (it never reached the SMSC) lets another one go. */
const PROBE_MS = 15_000;

/**
 * A connector's circuit breaker: closed, it takes messages; three transient
 * failures in a row (a bind lost under a submit, no answer in time, an SMSC
 * error that is not a busy answer) open it, and the connector takes none;
 * after 30 s, or as soon as a bind comes up, it is half-open: one submit goes
 * through as a probe, whose success closes it and whose failure opens it again.
 * A busy answer is the SMSC's flow control, not a failure.
 */
export class Circuit {
  private current: CircuitState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probingSince: number | null = null;
  private changedAt: number;

  /** `now`: the application's clock, in ms since the epoch. */
  constructor(private readonly now: () => number = Date.now) {
    this.changedAt = now();
  }

  get state(): CircuitState {
    if (this.current === 'open' && this.now() - this.openedAt >= OPEN_MS) this.move('half_open');
    return this.current;
  }

  /** When the state last changed (ms since the epoch). */
  get since(): number {
    return this.changedAt;
  }

  /** Whether a submit may go now; in half-open, one at a time (`probe` takes the place). */
  allows(): boolean {
    const state = this.state;
    return state === 'closed' || (state === 'half_open' && (this.probingSince === null || this.now() - this.probingSince >= PROBE_MS));
  }

  /** A submit is going through a half-open circuit: no other until its outcome. */
  probe(): void {
    if (this.state === 'half_open') this.probingSince = this.now();
  }

  succeeded(): void {
    this.failures = 0;
    this.probingSince = null;
    if (this.current !== 'closed') this.move('closed');
  }

  failed(): void {
    this.probingSince = null;
    if (this.state === 'half_open' || ++this.failures >= FAILURES_TO_OPEN) {
      this.failures = 0;
      this.openedAt = this.now();
      if (this.current !== 'open') this.move('open');
    }
  }

  /** A bind came up: an open circuit may try again at once. */
  bound(): void {
    if (this.current === 'open') this.move('half_open');
  }

  private move(state: CircuitState): void {
    this.current = state;
    this.changedAt = this.now();
  }
}
