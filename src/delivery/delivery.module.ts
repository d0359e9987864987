import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import { RoutingModule } from '../routing/routing.module.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DeliveryReceipts } from './delivery-receipts.js';
import { DeliveryRecords } from './delivery-records.js';
import { DeliveryMetrics } from './delivery.metrics.js';
import { EMAIL_PROVIDER } from './email-provider.js';
import { InboundMessages } from './inbound-messages.js';
import { OutboxWorker } from './outbox.worker.js';
import { OutboxRepository } from './outbox.repository.js';
import { payloadBoxProvider } from './payload-box.js';
import { LogEmailProvider } from './providers/log-email.provider.js';
import { LogReceiptRepository } from './providers/log-receipt.repository.js';
import { LogReceiptsWorker } from './providers/log-receipts.worker.js';
import { LogSmsProvider } from './providers/log-sms.provider.js';
import { SandboxEmailProvider, SandboxSmsProvider } from './providers/sandbox.providers.js';
import { SmtpEmailProvider } from './providers/smtp-email.provider.js';
import { ConnectorAdminController } from './connector-admin.controller.js';
import { ConnectorDrainRepository } from './connector-drain.repository.js';
import { ReceiptRepository } from './receipt.repository.js';
import { RouteAdminController } from './route-admin.controller.js';
import { RoutingAdmin } from './routing-admin.service.js';
import { RoutingMetrics } from './routing.metrics.js';
import { SmsConnectors } from './sms-connectors.js';
import { SMS_PROVIDER } from './sms-provider.js';
import { SmsRouter } from './sms-router.js';

@Module({
  imports: [BillingModule, RoutingModule],
  controllers: [ConnectorAdminController, RouteAdminController],
  providers: [
    DeliveryQueue,
    DeliveryRecords,
    OutboxWorker,
    OutboxRepository,
    payloadBoxProvider,
    LogSmsProvider,
    LogReceiptRepository,
    LogReceiptsWorker,
    LogEmailProvider,
    SandboxSmsProvider,
    SandboxEmailProvider,
    DeliveryReceipts,
    DeliveryMetrics,
    ReceiptRepository,
    InboundMessages,
    RoutingMetrics,
    ConnectorDrainRepository,
    SmsConnectors,
    SmsRouter,
    RoutingAdmin,
    { provide: SMS_PROVIDER, useExisting: SmsRouter },
    {
      provide: EMAIL_PROVIDER,
      inject: [deliveryConfig.KEY, LogEmailProvider],
      useFactory: (config: DeliveryConfig, log: LogEmailProvider) =>
        config.emailTransport === 'smtp' && config.smtpUrl ? new SmtpEmailProvider(config.smtpUrl, config.emailFrom) : log,
    },
  ],
  exports: [DeliveryQueue, DeliveryRecords, OutboxWorker, OutboxRepository, InboundMessages, SMS_PROVIDER, SmsConnectors],
})
export class DeliveryModule {}
