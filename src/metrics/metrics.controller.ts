import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { sameSecret } from '../common/crypto/same-secret.js';
import { ApiError } from '../common/errors/api-error.js';
import { appConfig, type AppConfig } from '../config/app.config.js';
import { Metrics } from './metrics.js';

/**
 * Prometheus scrape endpoint, outside `/v1`. Served only when METRICS_TOKEN
 * is set, to a scraper that sends it as a bearer token.
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<string> {
    const token = this.config.metricsToken;
    if (token === null) throw ApiError.notFound('Non trouvé', ['metrics: définissez METRICS_TOKEN pour les publier']);
    if (!sameSecret(authorization ?? '', `Bearer ${token}`)) throw ApiError.unauthorized();
    return this.metrics.registry.metrics();
  }
}
