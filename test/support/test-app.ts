import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AdminService } from '../../src/admin/admin.service.js';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { createFastifyAdapter } from '../../src/common/http/http-server.js';
import { applicationLogger } from '../../src/common/logging/logger.js';
import { Clock } from '../../src/common/clock.js';
import { Database } from '../../src/database/database.js';
import { OutboxWorker } from '../../src/delivery/outbox.worker.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { FakeClock } from './fake-clock.js';
import { checkedAgainst, OpenApiAnswers } from './openapi-answers.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: NestFastifyApplication;
  clock: FakeClock;
  admin: AdminService;
  database: Database;
  /** Hands every due outbox entry over now, in both lanes. */
  deliver(): Promise<void>;
  /** Runs the named job queue until nothing is due. */
  drain(queue: string): Promise<void>;
  /** Stops the dispatchers of both lanes, so that messages stay pending until `resumeDelivery()`. */
  pauseDelivery(): Promise<void>;
  resumeDelivery(): void;
  /** Runs `work` with the dispatcher stopped, and restarts it afterwards. */
  withDeliveryPaused<T>(work: () => Promise<T>): Promise<T>;
  /** A client whose every answer must be one the OpenAPI document describes, or the call fails. */
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * Boots the real AppModule, with its global guard, pipe, interceptor and
 * filter, over HTTP on a database of its own; only the clock is replaced,
 * and the providers a test names in `overrides` (a DNS resolver, say).
 */
export async function startTestApp(env: Record<string, string> = {}, overrides: Array<[token: unknown, value: unknown]> = []): Promise<TestApp> {
  const database = await createTestDatabase();
  // no receipts from the log provider unless a spec asks for them: messages stay as the hand-over left them
  Object.assign(process.env, { NODE_ENV: 'test', LOG_LEVEL: 'silent', LOG_RECEIPT_DELAY_MS: '0', ...database.env, ...env });

  const clock = new FakeClock();
  const builder = Test.createTestingModule({ imports: [AppModule] }).overrideProvider(Clock).useValue(clock);
  for (const [token, value] of overrides) builder.overrideProvider(token).useValue(value);
  const moduleRef = await builder.compile();
  const adapter = createFastifyAdapter(applicationLogger());
  const app = moduleRef.createNestApplication<NestFastifyApplication>(adapter, { bodyParser: false, logger: false });
  await configureApp(app);
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  const jobs = app.get(JobRunner);
  const outboxQueues = Object.values(OutboxWorker.QUEUES);
  const pauseDelivery = async () => void (await Promise.all(outboxQueues.map((queue) => jobs.pause(queue))));
  const resumeDelivery = () => outboxQueues.forEach((queue) => jobs.resume(queue));
  const answers = new OpenApiAnswers((await fastify.inject({ method: 'GET', url: '/docs-json' })).json());

  return {
    app,
    clock,
    admin: app.get(AdminService),
    database: app.get(Database),
    deliver: async () => void (await Promise.all(outboxQueues.map((queue) => jobs.drainNow(queue)))),
    drain: (queue) => jobs.drainNow(queue),
    pauseDelivery,
    resumeDelivery,
    withDeliveryPaused: async (work) => {
      await pauseDelivery();
      try {
        return await work();
      } finally {
        resumeDelivery();
      }
    },
    http: () => checkedAgainst(answers, request(app.getHttpServer())),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

