import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal.js';
import { isOverdraft, LedgerRepository } from '../billing/ledger.repository.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid, newLot } from '../common/ids.js';
import { toAmount } from '../common/money.js';
import { campaignConfig, type CampaignConfig } from '../config/campaign.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { Idempotency, type IdempotentRequest } from '../idempotency/idempotency.service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { SenderRepository } from '../sender/sender.repository.js';
import { Audience, type Rejection } from '../sms-send/audience.js';
import { MessageComposer } from '../sms-send/message-composer.js';
import { SendOptions } from '../sms-send/send-options.js';
import { SmsLotRepository } from '../sms-send/sms-lot.repository.js';
import { CampaignEvents } from './campaign-events.js';
import { CAMPAIGN_NOT_FOUND, CAMPAIGN_REFUSALS } from './campaign-status.js';
import { toCampaignDto } from './campaign-view.js';
import { CampaignRepository, NO_EXCLUSIONS, type CampaignRecord, type Exclusions } from './campaign.repository.js';
import { CAMPAIGN_QUEUE } from './campaign.worker.js';
import type { CampaignDto } from './dto/campaign.dto.js';
import type { LaunchCampaignDto } from './dto/campaign-input.dto.js';

/**
 * POST /v1/campaign/{id}/launch (SPEC-2 §1.4). In one transaction: expand the
 * groups (minus the excluded groups and the opt-outs of the key's mode, each
 * number once), price each recipient's text, freeze them as
 * `campaign_recipient` rows, name the lot, and debit the total at once, last:
 * the database refuses a negative balance, so a 402 leaves nothing behind.
 * The campaign is then `scheduled` until its `send_at`, or `running`; the
 * worker turns the recipients into messages.
 */
@Injectable()
export class LaunchCampaign {
  constructor(
    private readonly database: Database,
    private readonly campaigns: CampaignRepository,
    private readonly audience: Audience,
    private readonly composer: MessageComposer,
    private readonly options: SendOptions,
    private readonly senders: SenderRepository,
    private readonly lots: SmsLotRepository,
    private readonly ledger: LedgerRepository,
    private readonly events: CampaignEvents,
    private readonly idempotency: Idempotency,
    private readonly jobs: JobRunner,
    private readonly clock: Clock,
    @Inject(campaignConfig.KEY) private readonly config: CampaignConfig,
  ) {}

  async execute(principal: Principal, id: string, dto: LaunchCampaignDto, idempotency?: IdempotentRequest): Promise<CampaignDto> {
    const launched = await this.idempotency.once(principal.accountId, idempotency, (scope) => this.launch(principal, id, dto, scope));
    this.jobs.wake(CAMPAIGN_QUEUE);
    return launched;
  }

  private async launch(principal: Principal, id: string, dto: LaunchCampaignDto, idempotency?: IdempotencyScope): Promise<CampaignDto> {
    const now = this.clock.now();
    const lot = newLot();
    let total = 0;
    try {
      return await this.database.transaction(async (sql) => {
        const campaign = isUuid(id) ? await this.campaigns.find(sql, principal.accountId, principal.test, id, true) : null;
        if (!campaign) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
        if (campaign.status !== 'draft') throw ApiError.conflict('transition_invalide', [CAMPAIGN_REFUSALS[campaign.status]]);
        const dueAt = this.options.dueAt(dto.send_at === undefined ? campaign.sendAt : new Date(dto.send_at), now);
        const sender = await this.senderOf(sql, campaign);

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
        const charged = (amount: number) => (campaign.sandbox ? 0 : amount);
        total = messages.reduce((sum, message) => sum + charged(message.amount), 0);

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
            amount: charged(message.amount),
          })),
        );
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
        await this.ledger.debit(sql, campaign.accountId, total, { type: 'campaign', id: campaign.id, lot, createdBy: principal.userId }, now);
        const answer = toCampaignDto(launched, new Map());
        await idempotency?.recordSuccess(sql, answer);
        return answer;
      });
    } catch (error) {
      if (!isOverdraft(error)) throw error;
      const balance = (await this.database.run((sql) => this.ledger.balanceOf(sql, principal.accountId))) ?? 0;
      throw ApiError.insufficientBalance(toAmount(total), toAmount(balance));
    }
  }

  /** The sender the draft names, or the account's default; it must be approved by now. */
  private async senderOf(sql: Sql, campaign: CampaignRecord): Promise<{ id: string }> {
    if (campaign.senderId === null) return this.options.resolveSender(sql, campaign.accountId, undefined);
    const sender = await this.senders.find(sql, campaign.accountId, campaign.senderId);
    if (!sender) throw ApiError.invalidField('sender', 'expéditeur inconnu');
    if (sender.status !== 'approved') throw ApiError.invalidField('sender', 'expéditeur non approuvé');
    return sender;
  }
}

function tally(rejected: readonly Rejection[], excludedByGroup: number): Exclusions {
  const excluded: Exclusions = { ...NO_EXCLUSIONS, exclu_par_groupe: excludedByGroup };
  for (const { reason } of rejected) if (reason in excluded) excluded[reason as keyof Exclusions]++;
  return excluded;
}
