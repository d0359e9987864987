import { Global, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { JobRunner } from './job-runner.js';

/** The job runner, for features to register their queues with. */
@Global()
@Module({ providers: [JobRunner], exports: [JobRunner] })
export class JobsModule {}

/**
 * Runs the registered queues, in the long-running server only (the command
 * line registers them but never claims). They stop claiming before the
 * providers they use shut down, and their batches in hand settle first.
 */
@Module({})
export class JobWorkersModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly runner: JobRunner) {}

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.runner.stop();
  }
}
