import type { Sql } from '../database/sql.js';
import type { Lease } from './lease.js';

/**
 * One kind of durable background work, run by the JobRunner on every
 * instance: what to claim, and how to process a claimed batch.
 *
 * The jobs are rows. `claim` takes due ones in a transaction and leases them
 * to this process (LeasedTable does it the same way for every table). `process`
 * does their work and marks them done; where the work is a database write, the
 * write and the mark commit together, after checking the claim is still held
 * (`LeasedTable.hold`), so that a job is never done twice even when its lease
 * ran out under a slow instance. Work that leaves the database (an SMS, an
 * HTTP call) is at-least-once: a claim whose holder died before recording the
 * outcome is offered again once its lease runs out.
 */
export interface JobQueue<Job> {
  /** Names the queue in logs and to `JobRunner.wake`. */
  readonly name: string;
  /** Jobs claimed at once; a full batch (or more: a claim may take jobs in groups) is followed at once by another claim. */
  readonly batchSize: number;
  /**
   * Batches processed at once on this instance (1 by default): with 2, the next batch is claimed and begun while
   * the one before is finishing, so that a queue whose batches end slowly (the last outcomes of a hand-over being
   * recorded) keeps its work going between them. Each batch holds its own claim.
   */
  readonly batchesInHand?: number;
  /** Its claims and renewals go before other units waiting for the database (UnitOptions.urgent): the OTPs' hand-over. */
  readonly urgent?: boolean;
  /** How long a claim lasts without renewal. */
  readonly leaseMs: number;
  /** How often due jobs are looked for when nothing wakes the queue. */
  readonly pollMs: number;
  /** Takes up to `limit` due jobs for `lease.owner`, in the transaction `sql`. */
  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<Job[]>;
  /** Does the work of a claimed batch. A job it neither finishes nor reschedules is offered again when its lease runs out. */
  process(jobs: Job[], lease: Lease): Promise<void>;
  /** Extends the claim on jobs still being processed; queues whose batches may outlast `leaseMs` define it. */
  renew?(sql: Sql, jobs: Job[], lease: Lease, now: Date): Promise<void>;
  /**
   * Gives back, due at once, the jobs of a batch this instance failed (an unexpected error, not a lost claim) that it
   * still holds, rather than leaving them until their lease runs out. Queues whose work commits under `hold` define
   * it: what was committed stays and is not done again. Those whose work leaves the database (a hand-over, an HTTP
   * call) do not: their lease is also the pause before another attempt.
   */
  release?(sql: Sql, jobs: Job[], lease: Lease, now: Date): Promise<void>;
}
