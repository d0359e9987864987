import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';

/**
 * The instance is stopping but still serves (`SHUTDOWN_DRAIN_MS` after SIGTERM): readiness fails meanwhile, so that a
 * load balancer stops sending it requests before its listener closes rather than meet the closing listener with one.
 */
@Injectable()
export class ShutdownDrain {
  private draining = false;

  constructor(private readonly indicators: HealthIndicatorService) {}

  begin(): void {
    this.draining = true;
  }

  /** Null while the instance is not stopping. */
  indicator(): (() => HealthIndicatorResult) | null {
    return this.draining ? () => this.indicators.check('shutdown').down() : null;
  }
}
