import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
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
import { SmppSmsProvider } from './providers/smpp/smpp-sms.provider.js';
import { parseSmppUrl } from './providers/smpp/smpp-endpoint.js';
import { SmtpEmailProvider } from './providers/smtp-email.provider.js';
import { ReceiptRepository } from './receipt.repository.js';
import { SMS_PROVIDER } from './sms-provider.js';

@Module({
  imports: [BillingModule],
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
    {
      provide: SMS_PROVIDER,
      inject: [deliveryConfig.KEY, LogSmsProvider, DeliveryReceipts, InboundMessages],
      useFactory: (config: DeliveryConfig, log: LogSmsProvider, receipts: DeliveryReceipts, inbound: InboundMessages) =>
        config.smsProvider === 'smpp' && config.smppUrl
          ? new SmppSmsProvider(parseSmppUrl(config.smppUrl), config.smppWindow, receipts, inbound)
          : log,
    },
    {
      provide: EMAIL_PROVIDER,
      inject: [deliveryConfig.KEY, LogEmailProvider],
      useFactory: (config: DeliveryConfig, log: LogEmailProvider) =>
        config.emailTransport === 'smtp' && config.smtpUrl ? new SmtpEmailProvider(config.smtpUrl, config.emailFrom) : log,
    },
  ],
  exports: [DeliveryQueue, DeliveryRecords, OutboxWorker, OutboxRepository, InboundMessages, SMS_PROVIDER],
})
export class DeliveryModule {}
