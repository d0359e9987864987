import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { GroupModule } from '../group/group.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { SmsModule } from '../sms/sms.module.js';
import { SendingModule } from '../sending/sending.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { CampaignEvents } from './campaign-events.js';
import { CampaignController } from './campaign.controller.js';
import { CampaignRepository } from './campaign.repository.js';
import { CampaignService } from './campaign.service.js';
import { CampaignWorker } from './campaign.worker.js';
import { CancelCampaign } from './cancel-campaign.usecase.js';
import { LaunchCampaign } from './launch-campaign.usecase.js';

/** Campaigns: drafts, the launch that freezes and debits the audience, the worker that turns it into messages, cancel. */
@Module({
  imports: [BillingModule, DeliveryModule, GroupModule, SenderModule, SendingModule, SmsModule, WebhookModule],
  controllers: [CampaignController],
  providers: [CampaignRepository, CampaignService, CampaignEvents, LaunchCampaign, CampaignWorker, CancelCampaign],
})
export class CampaignModule {}
