import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { AdminFraudController } from './admin-fraud.controller.js';
import { AdminFraud } from './admin-fraud.service.js';
import { ConversionTallyRepository } from './conversion-tally.repository.js';
import { ConversionWorker } from './conversion.worker.js';
import { FraudAttemptRepository } from './fraud-attempt.repository.js';
import { FraudBlockRepository } from './fraud-block.repository.js';
import { FraudBlocks } from './fraud-blocks.service.js';
import { FraudEvents } from './fraud-events.js';
import { FraudGuard } from './fraud-guard.service.js';
import { FraudListRepository } from './fraud-list.repository.js';
import { FraudStateCache } from './fraud-state.cache.js';
import { FraudStateRepository } from './fraud-state.repository.js';
import { FraudController } from './fraud.controller.js';
import { FraudHousekeeping } from './fraud.housekeeping.js';
import { FraudMetrics } from './fraud.metrics.js';
import { FraudService } from './fraud.service.js';
import { VelocityKeyRepository } from './velocity-key.repository.js';

/**
 * The OTP fraud guard (SPEC-3 §3, tag Fraude): the check the OTP send calls
 * (FraudGuard), the accounts' settings (`/v1/fraud`, and `/v1/admin/fraud`
 * for the operator) and their per-instance cache, the low-conversion job,
 * the `otp.blocked` event and the guard's metrics.
 */
@Module({
  imports: [AccountModule, WebhookModule],
  controllers: [FraudController, AdminFraudController],
  providers: [
    AdminFraud,
    FraudGuard,
    FraudService,
    FraudStateCache,
    FraudStateRepository,
    FraudListRepository,
    FraudBlockRepository,
    FraudAttemptRepository,
    VelocityKeyRepository,
    FraudBlocks,
    FraudEvents,
    FraudMetrics,
    ConversionTallyRepository,
    ConversionWorker,
    FraudHousekeeping,
  ],
  exports: [FraudGuard, FraudAttemptRepository],
})
export class FraudModule {}
