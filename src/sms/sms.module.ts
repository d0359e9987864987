import { Module } from '@nestjs/common';
import { ContactModule } from '../contact/contact.module.js';
import { MessageOutRepository } from './message-out.repository.js';
import { SmsController } from './sms.controller.js';
import { SmsService } from './sms.service.js';

@Module({
  imports: [ContactModule],
  controllers: [SmsController],
  providers: [SmsService, MessageOutRepository],
  exports: [MessageOutRepository],
})
export class SmsModule {}
