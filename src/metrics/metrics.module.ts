import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { Metrics } from './metrics.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics],
  exports: [Metrics],
})
export class MetricsModule {}
