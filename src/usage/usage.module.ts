import { Module } from '@nestjs/common';
import { FraudModule } from '../fraud/fraud.module.js';
import { UsageController } from './usage.controller.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

/** GET /v1/metrics: the account's messages counted by local period, and its OTP totals (tag Métrique). */
@Module({
  imports: [FraudModule],
  controllers: [UsageController],
  providers: [UsageService, UsageRepository],
})
export class UsageModule {}
