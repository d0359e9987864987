import { Module } from '@nestjs/common';
import { WebhookModule } from '../webhook/webhook.module.js';
import { BillingService } from './billing.service.js';
import { LedgerRepository } from './ledger.repository.js';
import { LowBalanceAlerts } from './low-balance-alerts.js';
import { PriceRepository } from './price.repository.js';

@Module({
  imports: [WebhookModule],
  providers: [BillingService, PriceRepository, LedgerRepository, LowBalanceAlerts],
  exports: [BillingService, LedgerRepository, LowBalanceAlerts],
})
export class BillingModule {}
