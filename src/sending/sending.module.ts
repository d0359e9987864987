import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { GroupModule } from '../group/group.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { OptOutModule } from '../opt-out/opt-out.module.js';
import { RoutingModule } from '../routing/routing.module.js';
import { SenderModule } from '../sender/sender.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { ApprovedSenders } from './approved-senders.service.js';
import { AudienceRepository } from './audience.repository.js';
import { Audience } from './audience.service.js';
import { CallbackUrls } from './callback-urls.service.js';
import { ChargedSend } from './charged-send.service.js';
import { LotRepository } from './lot.repository.js';
import { MessageComposer } from './message-composer.service.js';
import { RecentDuplicates } from './recent-duplicates.repository.js';
import { SendSchedule } from './send-schedule.service.js';

const SHARED = [ChargedSend, ApprovedSenders, CallbackUrls, Audience, MessageComposer, RecentDuplicates, SendSchedule, LotRepository];

/**
 * What every charged send shares (an OTP, `POST /sms/send`, a campaign's launch, HLR lookups): the charged unit of
 * work, the approved sender, the callback URL, the audience and its messages, schedules and lots. Features keep only
 * their own rules and call these.
 */
@Module({
  imports: [BillingModule, GroupModule, IdempotencyModule, OptOutModule, RoutingModule, SenderModule, WebhookModule],
  providers: [...SHARED, AudienceRepository],
  exports: SHARED,
})
export class SendingModule {}
