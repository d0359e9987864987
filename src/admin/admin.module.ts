import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { BalanceModule } from '../balance/balance.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { ContactModule } from '../contact/contact.module.js';
import { GroupModule } from '../group/group.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { WebhookSecretsModule } from '../webhook/webhook-secrets.module.js';
import { AdminAccountsController } from './admin-accounts.controller.js';
import { AdminAccountsService } from './admin-accounts.service.js';
import { AdminService } from './admin.service.js';
import { DemoAccount } from './demo-account.js';
import { OperatorKeyService } from './operator-key.service.js';

@Module({
  imports: [
    AccountModule,
    AuthModule,
    BillingModule,
    BalanceModule,
    IdempotencyModule,
    SenderModule,
    GroupModule,
    ContactModule,
    OptOutModule,
    WebhookSecretsModule,
  ],
  controllers: [AdminAccountsController],
  providers: [AdminService, AdminAccountsService, OperatorKeyService, DemoAccount],
  exports: [AdminService, OperatorKeyService, DemoAccount],
})
export class AdminModule {}
