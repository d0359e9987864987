import { Module } from '@nestjs/common';
import { ContactModule } from '../contact/contact.module.js';
import { DeliveryRecords } from '../delivery/delivery-records.js';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { MessageAttemptRepository } from './message-attempt.repository.js';
import { MessageOutListRepository } from './message-out-list.repository.js';
import { MessageOutRepository } from './message-out.repository.js';
import { SmsDeliveryStore } from './sms-delivery-store.js';
import { SmsStatusEvents } from './sms-status-events.js';
import { SmsAdminController } from './sms-admin.controller.js';
import { SmsController } from './sms.controller.js';
import { SmsService } from './sms.service.js';

@Module({
  imports: [ContactModule, DeliveryModule, WebhookModule],
  controllers: [SmsController, SmsAdminController],
  providers: [SmsService, MessageOutRepository, MessageOutListRepository, MessageAttemptRepository, SmsStatusEvents, SmsDeliveryStore],
  exports: [MessageOutRepository, SmsDeliveryStore, SmsStatusEvents],
})
export class SmsModule {
  constructor(records: DeliveryRecords, messages: SmsDeliveryStore) {
    records.register('sms', messages);
  }
}
