import { Injectable } from '@nestjs/common';
import { toAmount } from '../common/money.js';
import type { Sql } from '../database/sql.js';
import { CampaignEventDataDto, CampaignWebhookEventDto } from './dto/campaign-event.dto.js';
import { WebhookEvents } from '../webhook/webhook-events.js';
import type { CampaignRecord } from './campaign.repository.js';

/** Each event's number for the campaign: an event replayed with its change is reported once. */
const SEQUENCE = { 'campaign.started': 1, 'campaign.completed': 2, 'campaign.cancelled': 3 } as const;

/** The `campaign.*` webhook events, emitted in the unit of work that changes the campaign's status, to the account's webhook. */
@Injectable()
export class CampaignEvents {
  constructor(private readonly webhooks: WebhookEvents) {
    webhooks.describe(CampaignWebhookEventDto, CampaignEventDataDto);
  }

  async emit(sql: Sql, type: keyof typeof SEQUENCE, campaign: CampaignRecord, at: Date): Promise<void> {
    await this.webhooks.emit(sql, { accountId: campaign.accountId, type, data: toEventData(campaign), at, subjectId: campaign.id, sequence: SEQUENCE[type] });
  }
}

function toEventData(campaign: CampaignRecord): CampaignEventDataDto {
  const time = (at: Date | null) => at?.toISOString() ?? null;
  return {
    id: campaign.id,
    name: campaign.name,
    status: campaign.status as CampaignEventDataDto['status'],
    lot: campaign.lot,
    recipients: campaign.recipients,
    amount: toAmount(campaign.amount),
    refunded: toAmount(campaign.refunded),
    started_at: time(campaign.startedAt),
    completed_at: time(campaign.completedAt),
    cancelled_at: time(campaign.cancelledAt),
    cancel_reason: campaign.cancelReason,
    sandbox: campaign.sandbox,
  };
}
