import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { InboundSmsController } from './inbound-sms.controller.js';
import { InboundSmsReceiver } from './inbound-sms.receiver.js';
import { InboundSmsService } from './inbound-sms.service.js';
import { KeywordReplies } from './keyword-replies.js';
import { MessageInRepository } from './message-in.repository.js';

/** Inbound SMS: stored from the providers' hand-over, keywords applied to the opt-out list, listed at `GET /sms/in`. */
@Module({
  imports: [AccountModule, DeliveryModule, OptOutModule, SenderModule, SmsModule, WebhookModule],
  controllers: [InboundSmsController],
  providers: [MessageInRepository, InboundSmsReceiver, InboundSmsService, KeywordReplies],
})
export class InboundSmsModule {}
