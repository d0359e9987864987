import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { BalanceController } from './balance.controller.js';
import { BalanceRepository } from './balance.repository.js';
import { BalanceService } from './balance.service.js';

/** `/v1/balance`: the balance, its ledger and its low-balance alert. */
@Module({
  imports: [BillingModule],
  controllers: [BalanceController],
  providers: [BalanceRepository, BalanceService],
  exports: [BalanceRepository],
})
export class BalanceModule {}
