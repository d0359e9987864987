import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { DeliveryHealth } from './delivery.health.js';
import { HealthController } from './health.controller.js';

@Module({
  imports: [TerminusModule, DeliveryModule],
  controllers: [HealthController],
  providers: [DeliveryHealth],
})
export class HealthModule {}
