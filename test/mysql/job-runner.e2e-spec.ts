import { DataSource } from 'typeorm';
import { SystemClock } from '../../src/common/clock.js';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { Database } from '../../src/database/database.js';
import type { Sql } from '../../src/database/sql.js';
import type { JobQueue } from '../../src/jobs/job-queue.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import type { Lease } from '../../src/jobs/lease.js';
import { LeasedTable } from '../../src/jobs/leased-table.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/until.js';

const JOBS = 3_000;
const RUNNERS_PER_POOL = 3;
const TABLE = new LeasedTable('job', ['id']);

/** Each job's work is one row in `done`, written in the unit of work that holds the job's claim. */
class CountingQueue implements JobQueue<{ id: number }> {
  readonly name = 'counting';
  readonly batchSize = 25;
  readonly leaseMs = 30_000;
  readonly pollMs = 50;

  constructor(private readonly database: Database) {}

  claim(sql: Sql, lease: Lease, now: Date, limit: number) {
    return TABLE.claim<{ id: number }>(sql, lease, now, limit);
  }

  async process(jobs: Array<{ id: number }>, lease: Lease): Promise<void> {
    await this.database.transaction(async (sql) => {
      for (const job of jobs) {
        await TABLE.hold(sql, this.name, job.id, lease, new Date());
        await sql.run('INSERT INTO done (job_id, runner) VALUES (?, ?)', [job.id, lease.owner]);
        await sql.run('DELETE FROM job WHERE id = ?', [job.id]);
      }
    });
  }
}

/** Several runners on two connection pools to one MariaDB: claims skip each other's locked rows, and no job is done twice. */
describe('JobRunner on MariaDB', () => {
  let database: TestDatabase;
  const dataSources: DataSource[] = [];
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let pool = 0; pool < 2; pool++) {
      const dataSource = new DataSource({
        ...dataSourceOptions({
          type: 'mysql',
          path: '',
          hosts: [{ host: process.env.DB_HOST ?? '127.0.0.1', port: Number(process.env.DB_PORT ?? 3306) }],
          user: process.env.DB_USER ?? null,
          password: process.env.DB_PASSWORD ?? null,
          name: database.env.DB_NAME!,
          poolSize: 10,
        }),
        migrations: [],
      });
      dataSources.push(await dataSource.initialize());
    }
    await dataSources[0]!.query(
      `CREATE TABLE job (id BIGINT AUTO_INCREMENT PRIMARY KEY, available_at DATETIME(3) NOT NULL, claimed_by VARCHAR(64) NULL,
        attempts INT NOT NULL DEFAULT 0, INDEX IDX_job_available (available_at, id))`,
    );
    await dataSources[0]!.query('CREATE TABLE done (job_id BIGINT NOT NULL, runner VARCHAR(64) NOT NULL)');
    const values = Array.from({ length: JOBS }, () => '(UTC_TIMESTAMP(3))').join(', ');
    await dataSources[0]!.query(`INSERT INTO job (available_at) VALUES ${values}`);
  });

  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    for (const dataSource of dataSources) await dataSource.destroy();
    await database?.drop();
  });

  it('does every job exactly once, spread over every runner', async () => {
    for (const dataSource of dataSources) {
      const shared = new Database(dataSource);
      for (let i = 0; i < RUNNERS_PER_POOL; i++) {
        const runner = new JobRunner(shared, new SystemClock());
        runner.register(new CountingQueue(shared));
        runners.push(runner);
      }
    }
    runners.forEach((runner) => runner.start());

    const count = async (query: string) => Number((await dataSources[0]!.query(query))[0].count);
    await waitFor(async () => (await count('SELECT COUNT(*) AS count FROM job')) === 0, 60_000);

    expect(await count('SELECT COUNT(*) AS count FROM done')).toBe(JOBS);
    expect(await count('SELECT COUNT(DISTINCT job_id) AS count FROM done')).toBe(JOBS);
    expect(await count('SELECT COUNT(DISTINCT runner) AS count FROM done')).toBeGreaterThan(1);
  }, 90_000);
});
