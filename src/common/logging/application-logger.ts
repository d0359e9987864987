import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/**
 * The application's Nest logger (nestjs-pino) without Nest's start-up line per
 * controller, which puts the global prefix before paths excluded from it
 * (`UsageController {/v1/v1/metrics}`, `HealthController {/v1/health}`): the
 * `Mapped {…}` line of each route, which follows, shows its real path.
 */
@Injectable()
export class ApplicationLogger extends Logger {
  override log(message: unknown, ...params: unknown[]): void {
    if (params.at(-1) === 'RoutesResolver') return;
    super.log(message, ...params);
  }
}
