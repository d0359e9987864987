import { Global, Module } from '@nestjs/common';
import { DatabaseMetrics } from '../database/database.metrics.js';
import { MetricsController } from './metrics.controller.js';
import { Metrics } from './metrics.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, DatabaseMetrics],
  exports: [Metrics],
})
export class MetricsModule {}
