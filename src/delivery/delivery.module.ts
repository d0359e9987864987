import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import { MessageOutRepository } from '../sms/message-out.repository.js';
import { SmsModule } from '../sms/sms.module.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DeliveryRecords } from './delivery-records.js';
import { EMAIL_PROVIDER } from './email-provider.js';
import { OutboxDispatcher } from './outbox-dispatcher.js';
import { OutboxRepository } from './outbox.repository.js';
import { payloadBoxProvider } from './payload-box.js';
import { LogEmailProvider } from './providers/log-email.provider.js';
import { LogSmsProvider } from './providers/log-sms.provider.js';
import { SandboxEmailProvider, SandboxSmsProvider } from './providers/sandbox.providers.js';
import { SMS_PROVIDER } from './sms-provider.js';

@Module({
  imports: [SmsModule, BillingModule],
  providers: [
    DeliveryQueue,
    DeliveryRecords,
    OutboxDispatcher,
    OutboxRepository,
    payloadBoxProvider,
    LogSmsProvider,
    LogEmailProvider,
    SandboxSmsProvider,
    SandboxEmailProvider,
    {
      provide: SMS_PROVIDER,
      inject: [deliveryConfig.KEY, LogSmsProvider],
      useFactory: (config: DeliveryConfig, log: LogSmsProvider) => {
        if (config.smsProvider === 'log') return log;
        throw new Error(`SMS_PROVIDER=${config.smsProvider} is not available`);
      },
    },
    {
      provide: EMAIL_PROVIDER,
      inject: [deliveryConfig.KEY, LogEmailProvider],
      useFactory: (config: DeliveryConfig, log: LogEmailProvider) => {
        if (config.emailTransport === 'log') return log;
        throw new Error(`EMAIL_TRANSPORT=${config.emailTransport} is not available`);
      },
    },
  ],
  exports: [DeliveryQueue, DeliveryRecords, OutboxDispatcher],
})
export class DeliveryModule {
  constructor(records: DeliveryRecords, messages: MessageOutRepository) {
    records.register('sms', messages);
  }
}
