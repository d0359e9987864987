import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid, newId } from '../common/ids.js';
import { Page, type ListPage } from '../common/list/page.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { GroupRepository } from '../group/group.repository.js';
import { SenderDirectory } from '../sender/sender-directory.js';
import { CallbackUrls } from '../sending/callback-urls.service.js';
import { SendSchedule } from '../sending/send-schedule.service.js';
import { CAMPAIGN_NOT_FOUND, CAMPAIGN_REFUSALS } from './campaign-status.js';
import { toCampaignDto } from './campaign-view.js';
import { CampaignRepository, type CampaignRecord, type DraftFields } from './campaign.repository.js';
import type { CampaignDto } from './dto/campaign.dto.js';
import type { CampaignQueryDto, CreateCampaignDto, UpdateCampaignDto } from './dto/campaign-input.dto.js';


/** Campaign drafts (create, edit, delete) and reads with live counts; launch and cancel are use cases of their own. */
@Injectable()
export class CampaignService {
  constructor(
    private readonly database: Database,
    private readonly campaigns: CampaignRepository,
    private readonly groups: GroupRepository,
    private readonly senders: SenderDirectory,
    private readonly schedule: SendSchedule,
    private readonly callbackUrls: CallbackUrls,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, dto: CreateCampaignDto): Promise<CampaignDto> {
    const now = this.clock.now();
    const campaign = await this.database.transaction(async (sql) => {
      const fields = await this.draftFields(sql, principal.accountId, dto, null, now);
      const record: CampaignRecord = {
        ...fields,
        id: newId(now),
        accountId: principal.accountId,
        sandbox: principal.test,
        status: 'draft',
        lot: null,
        recipients: 0,
        excluded: null,
        amount: 0,
        refunded: 0,
        position: 0,
        cancelledRecipients: 0,
        attempts: 0,
        createdBy: principal.userId,
        createdAt: now,
        updatedAt: now,
        launchedAt: null,
        startedAt: null,
        completedAt: null,
        cancelledAt: null,
        cancelReason: null,
      };
      await this.campaigns.insert(sql, record);
      return record;
    });
    return toCampaignDto(campaign, new Map());
  }

  async findOne(principal: Principal, id: string): Promise<CampaignDto> {
    return this.database.run(async (sql) => {
      const campaign = await this.find(sql, principal, id);
      return toCampaignDto(campaign, (await this.campaigns.messageCounts(sql, principal.accountId, [campaign.id])).get(campaign.id)!);
    });
  }

  /** The campaigns of the calling key's mode, newest first, each with its counts. */
  list(principal: Principal, query: CampaignQueryDto): Promise<ListPage<CampaignDto>> {
    const page = Page.of(query, { status: query.status });
    return this.database.run(async (sql) => {
      const found = await this.campaigns.list(sql, principal.accountId, principal.test, query.status, page);
      const launched = found.filter((campaign) => campaign.lot !== null).map((campaign) => campaign.id);
      const counts = await this.campaigns.messageCounts(sql, principal.accountId, launched);
      return page.answer(found, (campaign) => campaign.id, (campaign) => toCampaignDto(campaign, counts.get(campaign.id) ?? new Map()));
    });
  }

  /** Changes a draft; 409 once it is launched or cancelled. */
  async update(principal: Principal, id: string, dto: UpdateCampaignDto): Promise<CampaignDto> {
    const now = this.clock.now();
    const campaign = await this.database.transaction(async (sql) => {
      const draft = await this.draft(sql, principal, id);
      const fields = await this.draftFields(sql, principal.accountId, dto, draft, now);
      await this.campaigns.updateDraft(sql, draft.id, fields, now);
      return { ...draft, ...fields, updatedAt: now };
    });
    return toCampaignDto(campaign, new Map());
  }

  /** Deletes a draft; 409 once it is launched or cancelled. */
  async remove(principal: Principal, id: string): Promise<void> {
    await this.database.transaction(async (sql) => {
      const draft = await this.draft(sql, principal, id);
      await this.campaigns.delete(sql, draft.id);
    });
  }

  private async find(sql: Sql, principal: Principal, id: string, lock = false): Promise<CampaignRecord> {
    const campaign = isUuid(id) ? await this.campaigns.find(sql, principal.accountId, principal.test, id, lock) : null;
    if (!campaign) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
    return campaign;
  }

  private async draft(sql: Sql, principal: Principal, id: string): Promise<CampaignRecord> {
    const campaign = await this.find(sql, principal, id, true);
    if (campaign.status !== 'draft') throw ApiError.conflict('transition_invalide', [CAMPAIGN_REFUSALS[campaign.status]]);
    return campaign;
  }

  /** The draft's fields from a create (`current` null) or a PATCH over `current`, each checked. */
  private async draftFields(sql: Sql, accountId: string, dto: CreateCampaignDto | UpdateCampaignDto, current: DraftFields | null, now: Date): Promise<DraftFields> {
    const fields: DraftFields = {
      name: dto.name ?? current?.name ?? '',
      message: dto.message ?? current?.message ?? '',
      senderId: current?.senderId ?? null,
      groupIds: dto.group_ids ?? current?.groupIds ?? [],
      excludeGroupIds: dto.exclude_group_ids ?? current?.excludeGroupIds ?? [],
      sendAt: current?.sendAt ?? null,
      deliveryWindow: current?.deliveryWindow ?? null,
      webhookUrl: current?.webhookUrl ?? null,
      appendOptOut: dto.append_opt_out ?? current?.appendOptOut ?? true,
    };
    if (dto.sender !== undefined) fields.senderId = dto.sender === null ? null : await this.senderId(sql, accountId, dto.sender);
    if (dto.send_at !== undefined) {
      fields.sendAt = dto.send_at === null ? null : new Date(dto.send_at);
      if (fields.sendAt) this.schedule.dueAt(fields.sendAt, now);
    }
    if (dto.delivery_window !== undefined) fields.deliveryWindow = dto.delivery_window === null ? null : this.schedule.deliveryWindow(dto.delivery_window);
    if (dto.webhook_url !== undefined) fields.webhookUrl = dto.webhook_url === null ? null : await this.callbackUrls.vet(dto.webhook_url);
    await this.checkGroups(sql, accountId, 'group_ids', dto.group_ids);
    await this.checkGroups(sql, accountId, 'exclude_group_ids', dto.exclude_group_ids);
    return fields;
  }

  private async senderId(sql: Sql, accountId: string, name: string): Promise<string> {
    const sender = await this.senders.resolve(sql, accountId, name);
    if (!sender) throw ApiError.invalidField('sender', 'expéditeur inconnu');
    return sender.id;
  }

  private async checkGroups(sql: Sql, accountId: string, field: string, ids: readonly string[] | undefined): Promise<void> {
    if (!ids || ids.length === 0) return;
    const existing = await this.groups.existing(sql, accountId, ids);
    const unknown = ids.flatMap((id, index) => (existing.has(id) ? [] : [`${field}[${index}]: groupe inconnu`]));
    if (unknown.length > 0) throw ApiError.validation(unknown);
  }
}
