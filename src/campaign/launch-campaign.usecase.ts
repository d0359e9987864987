import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { Clock } from '../common/clock.js';
import { isUuid, newLot } from '../common/ids.js';
import { campaignConfig, type CampaignConfig } from '../config/campaign.config.js';
import type { Sql } from '../database/sql.js';
import type { IdempotentRequest } from '../idempotency/idempotency.service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { ApprovedSenders } from '../sending/approved-senders.service.js';
import { Audience } from '../sending/audience.service.js';
import { ChargedSend, type Charge } from '../sending/charged-send.service.js';
import { LotRepository } from '../sending/lot.repository.js';
import { MessageComposer, type ComposedMessage } from '../sending/message-composer.service.js';
import type { Rejection } from '../sending/rejection.js';
import { SendSchedule } from '../sending/send-schedule.service.js';
import { CampaignEvents } from './campaign-events.js';
import { CAMPAIGN_NOT_FOUND, CAMPAIGN_REFUSALS } from './campaign-status.js';
import { toCampaignDto } from './campaign-view.js';
import { CampaignRepository, NO_EXCLUSIONS, type CampaignRecord, type Exclusions } from './campaign.repository.js';
import { CAMPAIGN_QUEUE } from './campaign.worker.js';
import type { CampaignDto } from './dto/campaign.dto.js';
import type { LaunchCampaignDto } from './dto/campaign-input.dto.js';

/**
 * POST /v1/campaign/{id}/launch (SPEC-2 §1.4), a charged send (ChargedSend):
 * expand the groups (minus the excluded groups and the opt-outs of the key's
 * mode, each number once), price each recipient's text, freeze them as
 * `campaign_recipient` rows and name the lot; the total is debited at once,
 * last, so a 402 leaves nothing behind. The campaign is then `scheduled` until
 * its `send_at`, or `running`; the worker turns the recipients into messages.
 */
@Injectable()
export class LaunchCampaign {
  constructor(
    private readonly charged: ChargedSend,
    private readonly campaigns: CampaignRepository,
    private readonly audience: Audience,
    private readonly composer: MessageComposer,
    private readonly schedule: SendSchedule,
    private readonly senders: ApprovedSenders,
    private readonly lots: LotRepository,
    private readonly events: CampaignEvents,
    private readonly jobs: JobRunner,
    private readonly clock: Clock,
    @Inject(campaignConfig.KEY) private readonly config: CampaignConfig,
  ) {}

  execute(principal: Principal, id: string, dto: LaunchCampaignDto, idempotency?: IdempotentRequest): Promise<CampaignDto> {
    const now = this.clock.now();
    const lot = newLot();
    return this.charged.run(principal.accountId, idempotency, () => (sql) => this.launch(sql, principal, id, dto, { lot, now }));
  }

  private async launch(sql: Sql, principal: Principal, id: string, dto: LaunchCampaignDto, { lot, now }: { lot: string; now: Date }): Promise<Charge<CampaignDto>> {
    const campaign = isUuid(id) ? await this.campaigns.find(sql, principal.accountId, principal.test, id, true) : null;
    if (!campaign) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
    if (campaign.status !== 'draft') throw ApiError.conflict('transition_invalide', [CAMPAIGN_REFUSALS[campaign.status]]);
    const dueAt = this.schedule.dueAt(dto.send_at === undefined ? campaign.sendAt : new Date(dto.send_at), now);
    const sender = campaign.senderId === null ? await this.senders.named(sql, campaign.accountId, undefined) : await this.senders.byId(sql, campaign.accountId, campaign.senderId);
    const { messages, rejected, excludedByGroup } = await this.audienceOf(sql, campaign);
    const total = messages.reduce((sum, message) => sum + message.amount, 0);
    await this.freeze(sql, campaign, messages, lot, now);

    const status = dueAt.getTime() > now.getTime() ? 'scheduled' : 'running';
    const excluded = tally(rejected, excludedByGroup);
    await this.campaigns.launch(sql, campaign.id, { status, senderId: sender.id, lot, recipients: messages.length, excluded, amount: total, sendAt: dueAt, at: now });
    const launched: CampaignRecord = {
      ...campaign,
      status,
      senderId: sender.id,
      lot,
      recipients: messages.length,
      excluded,
      amount: total,
      sendAt: dueAt,
      launchedAt: now,
      startedAt: status === 'running' ? now : null,
      updatedAt: now,
    };
    if (status === 'running') await this.events.emit(sql, 'campaign.started', launched, now);
    return {
      cost: total,
      for: { type: 'campaign', id: campaign.id, lot, createdBy: principal.userId },
      at: now,
      answer: toCampaignDto(launched, new Map()),
      committed: () => this.jobs.wake(CAMPAIGN_QUEUE),
    };
  }

  /** The groups' members as they are now, screened, each with its priced text (what a sandbox campaign is not charged is 0). */
  private async audienceOf(sql: Sql, campaign: CampaignRecord): Promise<{ messages: ComposedMessage[]; rejected: Rejection[]; excludedByGroup: number }> {
    const { recipients, rejected, excludedByGroup } = await this.audience.expand(sql, {
      accountId: campaign.accountId,
      sandbox: campaign.sandbox,
      to: [],
      contactIds: [],
      groupIds: campaign.groupIds,
      excludeGroupIds: campaign.excludeGroupIds,
      defaultCountry: undefined,
      limit: { most: this.config.maxRecipients, field: 'group_ids', problem: `au plus ${this.config.maxRecipients} destinataires par campagne` },
    });
    const composition = { accountId: campaign.accountId, sandbox: campaign.sandbox, message: campaign.message, appendOptOut: campaign.appendOptOut };
    const messages = await this.composer.compose(sql, composition, recipients, rejected);
    if (messages.length === 0) throw ApiError.invalidField('group_ids', 'aucun destinataire');
    return { messages: campaign.sandbox ? messages.map((message) => ({ ...message, amount: 0 })) : messages, rejected, excludedByGroup };
  }

  /** Names the lot and freezes the recipients, for the worker to turn into messages. */
  private async freeze(sql: Sql, campaign: CampaignRecord, messages: ComposedMessage[], lot: string, now: Date): Promise<void> {
    await this.lots.insertGenerated(sql, { accountId: campaign.accountId, lot, test: campaign.sandbox, campaignId: campaign.id, at: now });
    await this.campaigns.insertRecipients(
      sql,
      campaign.id,
      messages.map((message, n) => ({
        n,
        contactId: message.recipient.contact?.id ?? null,
        phone: message.recipient.phone,
        country: message.recipient.country,
        priceId: message.priceId,
        message: message.text,
        segments: message.segments,
        encoding: message.encoding,
        amount: message.amount,
      })),
    );
  }
}

function tally(rejected: readonly Rejection[], excludedByGroup: number): Exclusions {
  const excluded: Exclusions = { ...NO_EXCLUSIONS, exclu_par_groupe: excludedByGroup };
  for (const { reason } of rejected) if (reason in excluded) excluded[reason as keyof Exclusions]++;
  return excluded;
}
