import { Module } from '@nestjs/common';
import { GroupModule } from '../group/group.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { SmsSendModule } from '../sms-send/sms-send.module.js';
import { CampaignController } from './campaign.controller.js';
import { CampaignRepository } from './campaign.repository.js';
import { CampaignService } from './campaign.service.js';

/** Campaigns: drafts, the launch that freezes and debits the audience, the worker that turns it into messages, cancel. */
@Module({
  imports: [GroupModule, SenderModule, SmsSendModule],
  controllers: [CampaignController],
  providers: [CampaignRepository, CampaignService],
})
export class CampaignModule {}
