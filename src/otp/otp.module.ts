import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { DeliveryRecords } from '../delivery/delivery-records.js';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { RoutingModule } from '../routing/routing.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { SendingModule } from '../sending/sending.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { OtpEmailRecords } from './otp-email-records.js';
import { OtpStatusRepository } from './otp-status.repository.js';
import { OtpStatusService } from './otp-status.service.js';
import { OtpHousekeeping } from './otp.housekeeping.js';
import { OtpController } from './otp.controller.js';
import { OtpRepository } from './otp.repository.js';
import { SendOtp } from './send-otp.usecase.js';
import { VerifyOtp } from './verify-otp.usecase.js';

@Module({
  imports: [BillingModule, DeliveryModule, OptOutModule, RoutingModule, SenderModule, SendingModule, SmsModule],
  controllers: [OtpController],
  providers: [SendOtp, VerifyOtp, OtpRepository, OtpEmailRecords, OtpHousekeeping, OtpStatusRepository, OtpStatusService],
})
export class OtpModule {
  constructor(records: DeliveryRecords, emailRecords: OtpEmailRecords) {
    records.register('email', emailRecords);
  }
}
