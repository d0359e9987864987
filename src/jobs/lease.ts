/**
 * A claim on jobs: who holds them and for how long. A claim is a row's owner
 * and expiry, written in the transaction that takes the work; once it runs
 * out, any instance may take the job up again.
 */
export class Lease {
  constructor(
    /** This process: `host:pid:random`, unique among the instances sharing the database. */
    readonly owner: string,
    readonly durationMs: number,
  ) {}

  /** When a claim taken or renewed at `now` runs out. */
  until(now: Date): Date {
    return new Date(now.getTime() + this.durationMs);
  }
}

/** Thrown inside a unit of work that finds its job claimed by another instance: the unit rolls back. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';

  constructor(queue: string, id: string | number) {
    super(`${queue} job ${id} is no longer held by this instance`);
  }
}
