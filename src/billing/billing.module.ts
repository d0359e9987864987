import { Module } from '@nestjs/common';
import { BillingService } from './billing.service.js';
import { LedgerRepository } from './ledger.repository.js';
import { PriceRepository } from './price.repository.js';

@Module({
  providers: [BillingService, PriceRepository, LedgerRepository],
  exports: [BillingService, LedgerRepository],
})
export class BillingModule {}
