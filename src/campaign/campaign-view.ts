import { toAmount } from '../common/money.js';
import type { CampaignCountsDto, CampaignDto } from './dto/campaign.dto.js';
import { NO_EXCLUSIONS, type CampaignRecord } from './campaign.repository.js';

/**
 * The campaign as the API shows it. `messages` are its messages by status;
 * recipients not yet turned into messages count as `scheduled` while the
 * campaign is under way and as `cancelled` once it is cancelled.
 */
export function toCampaignDto(campaign: CampaignRecord, messages: ReadonlyMap<string, number>): CampaignDto {
  const count = (status: string) => messages.get(status) ?? 0;
  const waiting = campaign.status === 'scheduled' || campaign.status === 'running' ? campaign.recipients - campaign.position : 0;
  const counts: CampaignCountsDto = {
    recipients: campaign.recipients,
    excluded: campaign.excluded ?? NO_EXCLUSIONS,
    scheduled: count('scheduled') + waiting,
    pending: count('pending'),
    sent: count('sent'),
    delivered: count('delivered'),
    undelivered: count('undelivered'),
    failed: count('failed'),
    cancelled: count('cancelled') + campaign.cancelledRecipients,
  };
  const time = (at: Date | null) => at?.toISOString() ?? null;
  return {
    id: campaign.id,
    company_id: campaign.accountId,
    name: campaign.name,
    message: campaign.message,
    sender_id: campaign.senderId,
    group_ids: campaign.groupIds,
    exclude_group_ids: campaign.excludeGroupIds,
    send_at: time(campaign.sendAt),
    delivery_window: campaign.deliveryWindow,
    webhook_url: campaign.webhookUrl,
    append_opt_out: campaign.appendOptOut,
    status: campaign.status,
    lot: campaign.lot,
    counts,
    amount: toAmount(campaign.amount),
    refunded: toAmount(campaign.refunded),
    sandbox: campaign.sandbox,
    created_by: campaign.createdBy,
    created_at: campaign.createdAt.toISOString(),
    updated_at: campaign.updatedAt.toISOString(),
    launched_at: time(campaign.launchedAt),
    started_at: time(campaign.startedAt),
    completed_at: time(campaign.completedAt),
    cancelled_at: time(campaign.cancelledAt),
    cancel_reason: campaign.cancelReason,
  };
}
