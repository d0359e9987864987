/**
 * What became of one submit_sm: `accepted`; `throttled` (a busy answer) or
 * `refused` (another transient error) by the SMSC, which sends it again;
 * `rejected` for good; `lost` with its bind, or `timeout` without an answer,
 * when the SMSC may or may not have taken it.
 */
export type AttemptOutcome = 'accepted' | 'throttled' | 'refused' | 'rejected' | 'lost' | 'timeout';

export interface SubmitAttempt {
  connector: string;
  outcome: AttemptOutcome;
  at: Date;
}

/** The submits of one hand-over of one message, in order, for its record (`attempts`) and its `dlr_number_retry`. */
export class SubmitLog {
  readonly attempts: SubmitAttempt[] = [];

  constructor(private readonly now: () => Date) {}

  note(connector: string, outcome: AttemptOutcome): void {
    this.attempts.push({ connector, outcome, at: this.now() });
  }

  /** The SMSC's own refusals that call for the submit again: what `dlr_number_retry` counts. */
  get refusals(): number {
    return this.attempts.filter((attempt) => attempt.outcome === 'throttled' || attempt.outcome === 'refused').length;
  }
}
