import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { RoutingModule } from '../routing/routing.module.js';
import { DeliveryHealth } from './delivery.health.js';
import { HealthController } from './health.controller.js';
import { ShutdownDrain } from './shutdown-drain.js';

@Module({
  imports: [TerminusModule, DeliveryModule, RoutingModule],
  controllers: [HealthController],
  providers: [DeliveryHealth, ShutdownDrain],
})
export class HealthModule {}
