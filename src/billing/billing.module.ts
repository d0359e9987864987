import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingService } from './billing.service.js';
import { MessagePrice } from './entities/message-price.entity.js';
import { LedgerRepository } from './ledger.repository.js';
import { PriceRepository } from './price.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([MessagePrice])],
  providers: [BillingService, PriceRepository, LedgerRepository],
  exports: [BillingService, LedgerRepository],
})
export class BillingModule {}
