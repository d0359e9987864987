import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { SendingModule } from '../sending/sending.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { CancelSms } from './cancel-sms.usecase.js';
import { SendSms } from './send-sms.usecase.js';
import { SmsSendController } from './sms-send.controller.js';

/** Ordinary SMS: sending to numbers, contacts and groups, now or later, and cancelling what waits. */
@Module({
  imports: [BillingModule, DeliveryModule, SendingModule, SmsModule],
  controllers: [SmsSendController],
  providers: [SendSms, CancelSms],
})
export class SmsSendModule {}
