import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { backoffMs } from './backoff.js';
import type { JobQueue } from './job-queue.js';
import { Lease, LeaseLost } from './lease.js';

/** A failed claim or batch is tried again after a backoff from the queue's poll interval up to this. */
const MAX_FAILURE_BACKOFF_MS = 10_000;

interface Loop {
  queue: JobQueue<unknown>;
  lease: Lease;
  /** Claiming; false before `start`, once stopped, and while paused. */
  active: boolean;
  /** Someone asked for a drain since the last claim started. */
  wanted: boolean;
  running: Promise<void> | null;
  poll: NodeJS.Timeout | undefined;
  /** Consecutive failed drains, and no drain before `resumeAt` after one. */
  failures: number;
  resumeAt: number;
}

/**
 * Runs every JobQueue on this instance: claims due jobs with a lease, hands
 * each claimed batch to its queue, renews the lease while a batch is in hand,
 * and claims again at once after a full batch. A queue is drained when it is
 * woken (after a commit that added work) and every `pollMs` otherwise; a drain
 * that fails is retried with backoff, the failed batch first given back where
 * its queue says how (`release`). On shutdown it stops claiming and waits
 * for the batches in hand. Drains run in the runner's own async context, not in
 * that of the request that woke them.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly loops = new Map<string, Loop>();
  private readonly scope = new AsyncResource(JobRunner.name);
  private started = false;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  register(queue: JobQueue<unknown>): void {
    if (this.loops.has(queue.name)) throw new Error(`job queue ${queue.name} registered twice`);
    const loop: Loop = {
      queue,
      lease: new Lease(this.owner, queue.leaseMs),
      active: false,
      wanted: false,
      running: null,
      poll: undefined,
      failures: 0,
      resumeAt: 0,
    };
    this.loops.set(queue.name, loop);
    if (this.started) this.activate(loop);
  }

  /** Starts claiming on every queue (the server does; the command line does not). */
  start(): void {
    this.started = true;
    for (const loop of this.loops.values()) this.activate(loop);
  }

  /** Stops claiming on every queue and waits for the batches in hand. */
  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.loops.values()].map((loop) => this.deactivate(loop)));
  }

  /** Asks for a drain of the queue soon; cheap to call after every commit that adds work. */
  wake(name: string): void {
    const loop = this.loopOf(name);
    if (!loop.active) return;
    loop.wanted = true;
    if (loop.running || Date.now() < loop.resumeAt) return;
    loop.running = this.scope
      .runInAsyncScope(() => this.drain(loop))
      .then(
        () => void (loop.failures = 0),
        (error: unknown) => this.failed(loop, error),
      )
      .finally(() => {
        loop.running = null;
        if (loop.wanted) this.wake(name);
      });
  }

  /** Drains the queue until nothing is due, and resolves then. */
  async drainNow(name: string): Promise<void> {
    const loop = this.loopOf(name);
    loop.resumeAt = 0;
    this.wake(name);
    while (loop.running) await loop.running;
  }

  /** Stops claiming on one queue, after its batch in hand; for tests that need work to wait. */
  pause(name: string): Promise<void> {
    return this.deactivate(this.loopOf(name));
  }

  resume(name: string): void {
    if (this.started) this.activate(this.loopOf(name));
  }

  private activate(loop: Loop): void {
    if (loop.active) return;
    loop.active = true;
    loop.poll = setInterval(() => this.wake(loop.queue.name), loop.queue.pollMs);
    loop.poll.unref();
    this.wake(loop.queue.name);
  }

  private async deactivate(loop: Loop): Promise<void> {
    loop.active = false;
    clearInterval(loop.poll);
    while (loop.running) await loop.running;
  }

  /**
   * Claims and processes batches until a claim comes back short; with several batches in hand, claims the next as
   * soon as fewer are. A failed batch stops the claims: the drain fails once the batches in hand have ended.
   */
  private async drain(loop: Loop): Promise<void> {
    const { queue, lease } = loop;
    const inHand = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    const begin = (claimed: unknown[]) => {
      const batch: Promise<void> = this.process(loop, claimed)
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => inHand.delete(batch));
      inHand.add(batch);
    };
    try {
      while (loop.wanted && loop.active && !failure) {
        loop.wanted = false;
        let full: boolean;
        do {
          const now = this.clock.now();
          const claimed = await this.database.transaction((sql) => queue.claim(sql, lease, now, queue.batchSize), { urgent: queue.urgent });
          full = claimed.length >= queue.batchSize;
          if (claimed.length > 0) begin(claimed);
          while (inHand.size >= (full ? (queue.batchesInHand ?? 1) : 1)) await Promise.race(inHand);
        } while (full && loop.active && !failure);
      }
    } finally {
      await Promise.all(inHand);
    }
    if (failure) throw failure.error;
  }

  /** Runs a batch, renewing its claim every third of the lease while it is in hand; gives it back when this instance fails it. */
  private async process(loop: Loop, jobs: unknown[]): Promise<void> {
    const { queue, lease } = loop;
    const renew = queue.renew;
    const renewal =
      renew &&
      setInterval(() => {
        this.database
          .run((sql) => renew.call(queue, sql, jobs, lease, this.clock.now()), { urgent: queue.urgent })
          .catch((error: unknown) => this.logger.warn({ err: error, queue: queue.name }, 'job lease renewal failed'));
      }, Math.max(1, Math.floor(queue.leaseMs / 3)));
    try {
      await queue.process(jobs, lease);
    } catch (error) {
      if (!(error instanceof LeaseLost)) await this.release(queue, jobs, lease);
      throw error;
    } finally {
      clearInterval(renewal);
    }
  }

  /** Best effort: a batch that cannot be given back (the database gone) comes back when its lease runs out. */
  private async release(queue: JobQueue<unknown>, jobs: unknown[], lease: Lease): Promise<void> {
    const release = queue.release;
    if (!release) return;
    await this.database
      .run((sql) => release.call(queue, sql, jobs, lease, this.clock.now()))
      .catch((error: unknown) => this.logger.warn({ err: error, queue: queue.name }, 'failed job batch not given back'));
  }

  private failed(loop: Loop, error: unknown): void {
    loop.failures++;
    const delay = backoffMs(loop.failures, loop.queue.pollMs, MAX_FAILURE_BACKOFF_MS);
    loop.resumeAt = Date.now() + delay;
    this.logger.warn({ err: error, queue: loop.queue.name, retryInMs: delay }, 'job queue drain interrupted');
    setTimeout(() => this.wake(loop.queue.name), delay).unref();
  }

  private loopOf(name: string): Loop {
    const loop = this.loops.get(name);
    if (!loop) throw new Error(`no job queue named ${name}`);
    return loop;
  }
}
