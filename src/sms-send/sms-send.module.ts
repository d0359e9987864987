import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { GroupModule } from '../group/group.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { Audience } from './audience.js';
import { AudienceRepository } from './audience.repository.js';
import { CancelSms } from './cancel-sms.usecase.js';
import { MessageComposer } from './message-composer.js';
import { SendOptions } from './send-options.js';
import { RecentDuplicates } from './recent-duplicates.js';
import { SendSms } from './send-sms.usecase.js';
import { SmsLotRepository } from './sms-lot.repository.js';
import { SmsSendController } from './sms-send.controller.js';

/** Ordinary SMS: sending to numbers, contacts and groups, now or later, and cancelling what waits. */
@Module({
  imports: [BillingModule, DeliveryModule, SmsModule, GroupModule, OptOutModule, SenderModule, IdempotencyModule, WebhookModule],
  controllers: [SmsSendController],
  providers: [SendSms, CancelSms, Audience, AudienceRepository, MessageComposer, SendOptions, RecentDuplicates, SmsLotRepository],
  exports: [Audience, MessageComposer, SendOptions, SmsLotRepository],
})
export class SmsSendModule {}
