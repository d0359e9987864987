import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookModule } from '../webhook/webhook.module.js';
import { BillingService } from './billing.service.js';
import { MessagePrice } from './entities/message-price.entity.js';
import { LedgerRepository } from './ledger.repository.js';
import { LowBalanceAlerts } from './low-balance-alerts.js';
import { PriceRepository } from './price.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([MessagePrice]), WebhookModule],
  providers: [BillingService, PriceRepository, LedgerRepository, LowBalanceAlerts],
  exports: [BillingService, LedgerRepository, LowBalanceAlerts],
})
export class BillingModule {}
