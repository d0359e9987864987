import { Module, type CanActivate } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AccountModule } from './account/account.module.js';
import { AdminModule } from './admin/admin.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BearerAuthGuard } from './auth/bearer-auth.guard.js';
import { BalanceModule } from './balance/balance.module.js';
import { CampaignModule } from './campaign/campaign.module.js';
import { CommonModule } from './common/common.module.js';
import { GuardChain } from './common/http/guard-chain.js';
import { HttpModule } from './common/http/http.module.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { AppConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DatabaseServerModule } from './database/database-server.module.js';
import { ContactModule } from './contact/contact.module.js';
import { ContactImportModule } from './contact-import/contact-import.module.js';
import { FraudModule } from './fraud/fraud.module.js';
import { GroupModule } from './group/group.module.js';
import { HealthModule } from './health/health.module.js';
import { HlrModule } from './hlr/hlr.module.js';
import { InboundSmsModule } from './inbound-sms/inbound-sms.module.js';
import { JobsModule, JobWorkersModule } from './jobs/jobs.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OptOutModule } from './opt-out/opt-out.module.js';
import { OtpModule } from './otp/otp.module.js';
import { CredentialRateLimitGuard } from './rate-limit/credential-rate-limit.guard.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { SmsModule } from './sms/sms.module.js';
import { SmsSendModule } from './sms-send/sms-send.module.js';
import { UsageModule } from './usage/usage.module.js';
import { WebhookModule } from './webhook/webhook.module.js';

@Module({
  imports: [
    AppConfigModule,
    CommonModule,
    DatabaseModule,
    DatabaseServerModule,
    HttpModule,
    LoggingModule,
    MetricsModule,
    ScheduleModule.forRoot(),
    JobsModule,
    JobWorkersModule,
    AuthModule,
    RateLimitModule,
    AccountModule,
    OtpModule,
    FraudModule,
    SmsModule,
    SmsSendModule,
    CampaignModule,
    UsageModule,
    BalanceModule,
    InboundSmsModule,
    HlrModule,
    WebhookModule,
    GroupModule,
    ContactModule,
    OptOutModule,
    ContactImportModule,
    HealthModule,
    AdminModule,
  ],
  providers: [
    // who calls, then how often that credential calls: the rate limit reads the principal the bearer guard sets
    { provide: APP_GUARD, inject: [BearerAuthGuard, CredentialRateLimitGuard], useFactory: (...guards: CanActivate[]) => new GuardChain(guards) },
  ],
})
export class AppModule {}
