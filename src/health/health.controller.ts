import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator, type HealthCheckResult } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator.js';
import { ApiFailure } from '../common/envelope/api-failure.decorator.js';
import { RespondWith } from '../common/envelope/respond-with.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { DeliveryHealth } from './delivery.health.js';
import { ShutdownDrain } from './shutdown-drain.js';

@ApiTags('Health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly delivery: DeliveryHealth,
    private readonly drain: ShutdownDrain,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'The process is up' })
  @RespondWith(200, 'OK')
  live(): void {}

  @Get('ready')
  @ApiOperation({
    summary: 'The service can serve and deliver',
    description:
      'Its database answers; when SMS go over SMPP, every route has a healthy connector (`smpp`, with each ' +
      'connector under a routing file); the oldest message not yet handed over has waited no longer than `OUTBOX_MAX_AGE_SECONDS`; ' +
      'the instance is not stopping (`shutdown` is down for `SHUTDOWN_DRAIN_MS` after SIGTERM, while it still serves).',
  })
  @RespondWith(200, 'OK')
  @ApiFailure(503, 'service_indisponible', 'A dependency is down; `data` tells which')
  ready(): Promise<HealthCheckResult> {
    return this.check();
  }

  @Get()
  @ApiOperation({ summary: 'Same as /health/ready' })
  @RespondWith(200, 'OK')
  @ApiFailure(503, 'service_indisponible', 'A dependency is down; `data` tells which')
  readyAlias(): Promise<HealthCheckResult> {
    return this.check();
  }

  private async check(): Promise<HealthCheckResult> {
    try {
      const smpp = this.delivery.smpp();
      const shutdown = this.drain.indicator();
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 2000 }),
        () => this.delivery.outboxAge(),
        ...(smpp ? [smpp] : []),
        ...(shutdown ? [shutdown] : []),
      ]);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) {
        throw new ApiError({ status: 503, message: 'service_indisponible', data: statusesOnly(error.getResponse()) });
      }
      throw error;
    }
  }
}

/** What a 503 keeps of a check's details besides its status: under a routing file, each connector and the routes left without one. */
const KEPT_DETAILS = ['connectors', 'routes_without_connector'];

/** Which dependency is up or down, without the driver's words. */
function statusesOnly(result: unknown): Record<string, Record<string, unknown>> {
  const details = (result as { details?: Record<string, Record<string, unknown>> }).details ?? {};
  return Object.fromEntries(
    Object.entries(details).map(([name, detail]) => [
      name,
      { status: String(detail.status ?? 'down'), ...Object.fromEntries(KEPT_DETAILS.filter((key) => key in detail).map((key) => [key, detail[key]])) },
    ]),
  );
}
