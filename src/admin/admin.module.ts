import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { ContactModule } from '../contact/contact.module.js';
import { GroupModule } from '../group/group.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { WebhookSecretsModule } from '../webhook/webhook-secrets.module.js';
import { AdminService } from './admin.service.js';
import { DemoAccount } from './demo-account.js';

@Module({
  imports: [AccountModule, AuthModule, BillingModule, SenderModule, GroupModule, ContactModule, OptOutModule, WebhookSecretsModule],
  providers: [AdminService, DemoAccount],
  exports: [AdminService, DemoAccount],
})
export class AdminModule {}
