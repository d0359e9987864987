import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { Database } from '../database/database.js';
import { MessageOutRepository } from '../sms/message-out.repository.js';
import { SmsStatusEvents } from '../sms/sms-status-events.js';
import { CampaignEvents } from './campaign-events.js';
import { CAMPAIGN_NOT_FOUND, CAMPAIGN_REFUSALS } from './campaign-status.js';
import { toCampaignDto } from './campaign-view.js';
import { CampaignRepository, type CampaignRecord } from './campaign.repository.js';
import type { CampaignDto } from './dto/campaign.dto.js';
import type { CancelCampaignDto } from './dto/campaign-input.dto.js';

const EVENT_CHUNK = 500;

/**
 * POST /v1/campaign/{id}/cancel (SPEC-2 §1.4), from `draft`, `scheduled` or
 * `running`, in one transaction on the locked campaign row: the recipients
 * not yet turned into messages and the messages still `scheduled` are
 * cancelled and refunded with one `refund` row; messages already handed over
 * keep their course. The worker's chunks commit under the same row lock and
 * check their claim, which the cancel takes away: a chunk either committed
 * before (its messages are then counted here) or does not commit at all.
 */
@Injectable()
export class CancelCampaign {
  constructor(
    private readonly database: Database,
    private readonly campaigns: CampaignRepository,
    private readonly messages: MessageOutRepository,
    private readonly smsEvents: SmsStatusEvents,
    private readonly events: CampaignEvents,
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, id: string, dto: CancelCampaignDto): Promise<CampaignDto> {
    const now = this.clock.now();
    return this.database.transaction(async (sql) => {
      const campaign = isUuid(id) ? await this.campaigns.find(sql, principal.accountId, principal.test, id, true) : null;
      if (!campaign) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
      if (campaign.status === 'done' || campaign.status === 'cancelled') {
        throw ApiError.conflict('transition_invalide', [CAMPAIGN_REFUSALS[campaign.status]]);
      }
      const unsent = campaign.recipients - campaign.position;
      const scheduled = await this.campaigns.lockScheduledMessages(sql, campaign.accountId, campaign.id);
      const ids = scheduled.map((message) => message.uniqId);
      await this.messages.cancelScheduled(sql, ids, now);
      const refunded =
        (unsent > 0 ? await this.campaigns.amountFrom(sql, campaign.id, campaign.position) : 0) + scheduled.reduce((sum, message) => sum + message.amount, 0);
      const reference = { type: 'campaign' as const, id: campaign.id, lot: campaign.lot, createdBy: principal.userId };
      await this.ledger.add(sql, campaign.accountId, refunded, 'refund', reference, now);
      const reason = dto.reason ?? null;
      await this.campaigns.cancel(sql, campaign.id, { cancelledRecipients: unsent, refunded, reason, at: now });
      for (let start = 0; start < ids.length; start += EVENT_CHUNK) await this.smsEvents.changed(sql, ids.slice(start, start + EVENT_CHUNK), now);
      const cancelled: CampaignRecord = {
        ...campaign,
        status: 'cancelled',
        cancelledRecipients: unsent,
        refunded,
        cancelReason: reason,
        cancelledAt: now,
        updatedAt: now,
      };
      await this.events.emit(sql, 'campaign.cancelled', cancelled, now);
      return toCampaignDto(cancelled, (await this.campaigns.messageCounts(sql, campaign.accountId, [campaign.id])).get(campaign.id)!);
    });
  }
}
