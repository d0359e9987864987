import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { readTime, type Sql } from '../database/sql.js';
import type { JobQueue } from './job-queue.js';
import { JobRunner } from './job-runner.js';
import { LeaseLost, type Lease } from './lease.js';
import { LeasedTable } from './leased-table.js';

class TestClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

interface Job {
  id: number;
  attempts: number;
}

const JOBS = new LeasedTable('job', ['id', 'attempts']);

/** A queue whose work is a database write (`done_by`), committed under the claim; a done job is due no more (`available_at` NULL). */
class TestQueue implements JobQueue<Job> {
  readonly name = 'test';
  readonly batchSize = 10;
  readonly pollMs = 20;
  batchesInHand?: number;
  processed: Array<{ id: number; by: string }> = [];
  /** What each batch does before committing; a test may hold it back or make it fail. */
  before: (jobs: Job[]) => Promise<void> = async () => undefined;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    readonly leaseMs = 1_000,
    readonly renews = false,
  ) {}

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<Job[]> {
    return JOBS.claim<Job>(sql, lease, now, limit);
  }

  async process(jobs: Job[], lease: Lease): Promise<void> {
    await this.before(jobs);
    for (const job of jobs) {
      await this.database.transaction(async (sql) => {
        await JOBS.hold(sql, this.name, job.id, lease, this.clock.now());
        await sql.run('UPDATE job SET done_by = ?, available_at = NULL WHERE id = ?', [lease.owner, job.id]);
      });
      this.processed.push({ id: job.id, by: lease.owner });
    }
  }

  get renew(): JobQueue<Job>['renew'] {
    return this.renews ? (sql, jobs, lease, now) => JOBS.renew(sql, jobs.map((job) => job.id), lease, now).then(() => undefined) : undefined;
  }

  /** Set to give a failed batch back at once. */
  release?: JobQueue<Job>['release'];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe(JobRunner.name, () => {
  let dataSource: DataSource;
  let database: Database;
  let clock: TestClock;
  const runners: JobRunner[] = [];

  const runner = (queue: TestQueue) => {
    const created = new JobRunner(database, clock);
    created.register(queue);
    runners.push(created);
    return created;
  };
  const addJobs = async (count: number, at = clock.now()) => {
    await database.transaction(async (sql) => {
      for (let i = 0; i < count; i++) await sql.run('INSERT INTO job (available_at, attempts) VALUES (?, 0)', [at]);
    });
  };
  const rows = () =>
    database.run((sql) => sql.all<{ id: number; done_by: string | null; claimed_by: string | null; attempts: number; available_at: string }>('SELECT * FROM job ORDER BY id'));

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query(
      `CREATE TABLE job (id INTEGER PRIMARY KEY, available_at DATETIME, claimed_by VARCHAR(64),
        attempts INT NOT NULL DEFAULT 0, done_by VARCHAR(64))`,
    );
    database = new Database(dataSource);
    clock = new TestClock();
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((each) => each.stop()));
    await database.beforeApplicationShutdown();
    await dataSource.destroy();
  });

  it('processes every due job once, among several runners, and leaves jobs not yet due', async () => {
    const queues = [new TestQueue(database, clock), new TestQueue(database, clock), new TestQueue(database, clock)];
    await addJobs(200);
    await addJobs(5, new Date(clock.now().getTime() + 3_600_000));
    queues.forEach((queue) => runner(queue).start());

    await until(() => queues.reduce((sum, queue) => sum + queue.processed.length, 0) >= 200);
    await sleep(100);

    const processed = queues.flatMap((queue) => queue.processed.map((job) => job.id)).sort((a, b) => a - b);
    expect(processed).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect((await rows()).filter((row) => row.done_by === null).map((row) => row.id)).toEqual([201, 202, 203, 204, 205]);
  });

  it('claims with a lease: owner, attempt and expiry are written with the claim', async () => {
    const queue = new TestQueue(database, clock, 60_000);
    let release!: () => void;
    queue.before = () => new Promise((resolve) => (release = resolve));
    await addJobs(1);
    runner(queue).start();

    await until(async () => (await rows())[0]!.claimed_by !== null);
    const [claimed] = await rows();
    expect(claimed!.claimed_by).toMatch(/^.+:\d+:[0-9a-f]{8}$/);
    expect(claimed!.attempts).toBe(1);
    expect(readTime(claimed!.available_at).getTime()).toBeGreaterThan(clock.now().getTime() + 59_000);
    release();
  });

  it('takes up the jobs of a runner that stopped answering once their lease has run out, and only then', async () => {
    const stuck = new TestQueue(database, clock, 1_000);
    stuck.before = () => new Promise(() => undefined);
    await addJobs(3);
    const dead = new JobRunner(database, clock);
    dead.register(stuck);
    dead.start();
    await until(async () => (await rows()).every((row) => row.claimed_by !== null));

    const healthy = new TestQueue(database, clock, 1_000);
    runner(healthy).start();
    await sleep(100);
    expect(healthy.processed).toEqual([]);

    clock.offsetMs += 1_001;
    await until(() => healthy.processed.length === 3);
    expect((await rows()).map((row) => row.attempts)).toEqual([2, 2, 2]);
  });

  it('renews the claim of a batch in hand, so that no other runner takes it over', async () => {
    const slow = new TestQueue(database, clock, 300, true);
    let release!: () => void;
    slow.before = () => new Promise((resolve) => (release = resolve));
    await addJobs(2);
    runner(slow).start();
    await until(async () => (await rows()).every((row) => row.claimed_by !== null));

    const other = new TestQueue(database, clock, 300);
    runner(other).start();
    await sleep(900);
    expect(other.processed).toEqual([]);

    release();
    await until(() => slow.processed.length === 2);
    expect(other.processed).toEqual([]);
  });

  it('rolls back the work of a runner whose job was taken over meanwhile', async () => {
    const late = new TestQueue(database, clock, 1_000);
    let release!: () => void;
    late.before = () => new Promise((resolve) => (release = resolve));
    const failures: unknown[] = [];
    late.process = ((original) =>
      async function (this: TestQueue, jobs: Job[], lease: Lease) {
        try {
          await original.call(this, jobs, lease);
        } catch (error) {
          failures.push(error);
        }
      })(late.process);
    await addJobs(1);
    runner(late).start();
    await until(async () => (await rows())[0]!.claimed_by !== null);

    clock.offsetMs += 1_001;
    const taker = new TestQueue(database, clock, 1_000);
    runner(taker).start();
    await until(() => taker.processed.length === 1);
    release();
    await until(() => failures.length === 1);

    expect(failures[0]).toBeInstanceOf(LeaseLost);
    expect(late.processed).toEqual([]);
    expect((await rows())[0]!.done_by).toBe(taker.processed[0]!.by);
  });

  it('goes on after a batch fails: its jobs come back when their lease runs out', async () => {
    const queue = new TestQueue(database, clock, 200);
    let failing = true;
    queue.before = async () => {
      if (failing) throw new Error('provider down');
    };
    await addJobs(4);
    runner(queue).start();
    await until(async () => (await rows()).every((row) => row.attempts === 1));

    failing = false;
    clock.offsetMs += 201;
    await until(() => queue.processed.length === 4, 15_000);
    expect((await rows()).map((row) => row.attempts)).toEqual([2, 2, 2, 2]);
  });

  it('gives back at once a batch it failed when the queue releases its jobs; what the batch had done stays done', async () => {
    const queue = new TestQueue(database, clock, 60_000);
    queue.release = async (sql, jobs, lease, now) => void (await JOBS.release(sql, jobs.map((job) => job.id), lease.owner, now));
    let failing = true;
    const original = queue.process.bind(queue);
    queue.process = async (jobs, lease) => {
      if (!failing) return original(jobs, lease);
      failing = false;
      await original(jobs.slice(0, 1), lease);
      throw new Error('reader thread lost');
    };
    await addJobs(4);
    runner(queue).start();

    await until(() => queue.processed.length === 4);
    expect(queue.processed.map((job) => job.id)).toEqual([1, 2, 3, 4]);
    expect((await rows()).map((row) => row.attempts)).toEqual([1, 2, 2, 2]);
  });

  it('claims the next batch while one is in hand, up to its batches in hand, and processes every job once', async () => {
    const queue = new TestQueue(database, clock);
    queue.batchesInHand = 2;
    const held: Array<() => void> = [];
    let mostInHand = 0;
    queue.before = () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      held.push(release);
      mostInHand = Math.max(mostInHand, held.length);
      return released.then(() => void held.splice(held.indexOf(release), 1));
    };
    await addJobs(45);
    runner(queue).start();

    await until(() => held.length === 2);
    await sleep(50);
    expect(held).toHaveLength(2);
    while (queue.processed.length < 45) {
      held[0]?.();
      await sleep(5);
    }

    expect(mostInHand).toBe(2);
    expect(queue.processed.map((job) => job.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  });

  it('with batches in hand, stops claiming after a failed batch and ends the drain once the other has ended', async () => {
    const queue = new TestQueue(database, clock, 200);
    queue.batchesInHand = 2;
    let releaseFirst!: () => void;
    let batches = 0;
    queue.before = (jobs) => {
      batches++;
      if (jobs[0]!.id === 1) return new Promise((resolve) => (releaseFirst = resolve));
      throw new Error('provider down');
    };
    await addJobs(30);
    runner(queue).start();
    await until(() => batches === 2);
    await sleep(50);

    expect(batches).toBe(2);
    releaseFirst();
    await until(() => queue.processed.length === 10);
    expect(queue.processed.map((job) => job.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('waits for the batch in hand when stopped, and claims nothing afterwards', async () => {
    const queue = new TestQueue(database, clock);
    let release!: () => void;
    queue.before = () => new Promise((resolve) => (release = resolve));
    await addJobs(1);
    const jobs = runner(queue);
    jobs.start();
    await until(async () => (await rows())[0]!.claimed_by !== null);

    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(queue.processed).toHaveLength(1);

    queue.before = async () => undefined;
    await addJobs(1);
    jobs.wake('test');
    await sleep(100);
    expect(queue.processed).toHaveLength(1);
  });

  it('drains now on demand, and not while paused', async () => {
    const queue = new TestQueue(database, clock);
    const jobs = runner(queue);
    jobs.start();
    await jobs.pause('test');
    await addJobs(25);

    await jobs.drainNow('test');
    expect(queue.processed).toHaveLength(0);

    jobs.resume('test');
    await jobs.drainNow('test');
    expect(queue.processed).toHaveLength(25);
  });

  it('refuses a second queue with the same name and wakes no unknown queue', () => {
    const jobs = runner(new TestQueue(database, clock));
    expect(() => jobs.register(new TestQueue(database, clock))).toThrow('registered twice');
    expect(() => jobs.wake('nothing')).toThrow('no job queue named nothing');
  });
});
