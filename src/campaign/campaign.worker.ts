import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { campaignConfig, type CampaignConfig } from '../config/campaign.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { DeliveryQueue, type Delivery } from '../delivery/delivery-queue.js';
import type { SmsPayload } from '../delivery/outbox-payload.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import { LeaseLost, type Lease } from '../jobs/lease.js';
import { SenderRepository } from '../sender/sender.repository.js';
import { MessageOutRepository, type NewMessageOut } from '../sms/message-out.repository.js';
import { nextOpening } from '../sending/delivery-window.js';
import { DEFAULT_VALIDITY_MINUTES } from '../sending/message-rules.js';
import { CampaignEvents } from './campaign-events.js';
import { CampaignRepository, type CampaignRecipient, type CampaignRecord } from './campaign.repository.js';

export const CAMPAIGN_QUEUE = 'campaign';

/** Recipients turned into messages per transaction. */
export const CAMPAIGN_CHUNK = 500;
/** A campaign whose messages are all written looks again this often whether they are all handed over. */
export const CAMPAIGN_FINISH_POLL_MS = 5_000;

/**
 * The campaign job queue, on every instance. A claimed campaign gets one
 * chunk of work per claim, so that campaigns and instances take turns:
 *
 * - while recipients remain, the next 500 become messages (`source`
 *   `campaign`, the campaign's lot, each recipient's frozen text and price)
 *   with their outbox entries, and the campaign's `position` moves past them,
 *   all in one transaction that first checks the claim (`hold`): a chunk
 *   commits once, and a campaign taken up after its instance died goes on
 *   from its last committed chunk;
 * - once none remain, the campaign is `done` when none of its messages is
 *   still `scheduled` or `pending` (handed over, SPEC-2 §1.4); until then it
 *   looks again every few seconds.
 *
 * A scheduled campaign is claimed at its `send_at` and starts `running` with
 * its first chunk. Messages due outside the delivery window are written
 * `scheduled` until it opens, like those of POST /sms/send.
 */
@Injectable()
export class CampaignWorker implements JobQueue<CampaignRecord> {
  readonly name = CAMPAIGN_QUEUE;
  readonly batchSize = 1;
  readonly pollMs = 1_000;
  readonly leaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly campaigns: CampaignRepository,
    private readonly messages: MessageOutRepository,
    private readonly delivery: DeliveryQueue,
    private readonly senders: SenderRepository,
    private readonly events: CampaignEvents,
    private readonly jobs: JobRunner,
    private readonly clock: Clock,
    @Inject(campaignConfig.KEY) config: CampaignConfig,
  ) {
    this.leaseMs = config.leaseMs;
    jobs.register(this);
  }

  claim(sql: Sql, lease: Lease, now: Date, limit: number): Promise<CampaignRecord[]> {
    return this.campaigns.claim(sql, lease, now, limit);
  }

  async renew(sql: Sql, jobs: CampaignRecord[], lease: Lease, now: Date): Promise<void> {
    await this.campaigns.renew(sql, jobs.map((job) => job.id), lease, now);
  }

  /** A campaign this instance failed goes on from its last committed chunk, on whichever instance claims it first. */
  async release(sql: Sql, jobs: CampaignRecord[], lease: Lease, now: Date): Promise<void> {
    await this.campaigns.release(sql, jobs.map((job) => job.id), lease.owner, now);
  }

  async process(jobs: CampaignRecord[], lease: Lease): Promise<void> {
    for (const campaign of jobs) {
      if (campaign.position < campaign.recipients) {
        await this.materialise(campaign, lease);
        this.delivery.committed();
        this.jobs.wake(CAMPAIGN_QUEUE);
      } else {
        await this.finishIfHandedOver(campaign, lease);
      }
    }
  }

  /** The next chunk of recipients as messages, in one transaction with the campaign's new position. */
  private materialise(campaign: CampaignRecord, lease: Lease): Promise<void> {
    return this.database.transaction(async (sql) => {
      const now = this.clock.now();
      await this.campaigns.hold(sql, this.name, campaign.id, lease, now);
      if (campaign.status === 'scheduled') {
        await this.campaigns.start(sql, campaign.id, now);
        await this.events.emit(sql, 'campaign.started', { ...campaign, status: 'running', startedAt: now }, now);
      }
      const chunk = await this.campaigns.recipients(sql, campaign.id, campaign.position, CAMPAIGN_CHUNK);
      const sender = (await this.senders.find(sql, campaign.accountId, campaign.senderId!))!;
      const dueAt = campaign.deliveryWindow ? nextOpening(campaign.deliveryWindow, now) : now;
      const written = chunk.map((recipient) => ({ recipient, uniqId: newId(now) }));
      const context: MessageContext = { campaign, sender: sender.name, dueAt, scheduled: dueAt.getTime() > now.getTime(), now };
      await this.messages.insertMany(sql, written.map((message) => toRecord(message, context)));
      await this.delivery.enqueueLot(sql, written.map((message) => toDelivery(message, context)));
      const to = campaign.position + chunk.length;
      const last = to >= campaign.recipients;
      const next = last ? new Date(now.getTime() + CAMPAIGN_FINISH_POLL_MS) : now;
      if (!(await this.campaigns.advance(sql, campaign.id, campaign.position, to, next))) throw new LeaseLost(this.name, campaign.id);
    });
  }

  /** `done` once every message is handed over; else looked at again a little later. */
  private finishIfHandedOver(campaign: CampaignRecord, lease: Lease): Promise<void> {
    return this.database.transaction(async (sql) => {
      const now = this.clock.now();
      await this.campaigns.hold(sql, this.name, campaign.id, lease, now);
      if (await this.campaigns.hasMessagesWaiting(sql, campaign.accountId, campaign.id)) {
        await this.campaigns.advance(sql, campaign.id, campaign.position, campaign.position, new Date(now.getTime() + CAMPAIGN_FINISH_POLL_MS));
        return;
      }
      await this.campaigns.complete(sql, campaign.id, now);
      await this.events.emit(sql, 'campaign.completed', { ...campaign, status: 'done', completedAt: now }, now);
    });
  }
}

/** What every message of one chunk shares. */
interface MessageContext {
  campaign: CampaignRecord;
  sender: string;
  dueAt: Date;
  scheduled: boolean;
  now: Date;
}

function toRecord({ recipient, uniqId }: { recipient: CampaignRecipient; uniqId: string }, context: MessageContext): NewMessageOut {
  const { campaign } = context;
  return {
    uniqId,
    accountId: campaign.accountId,
    messagePriceId: recipient.priceId,
    type: 'sms',
    source: 'campaign',
    lot: campaign.lot!,
    contactId: recipient.contactId,
    campaignId: campaign.id,
    senderId: campaign.senderId,
    recipient: recipient.phone,
    country: recipient.country,
    message: recipient.message,
    segments: recipient.segments,
    encoding: recipient.encoding,
    amount: recipient.amount,
    status: context.scheduled ? 'scheduled' : 'pending',
    sendAt: context.dueAt,
    webhookUrl: campaign.webhookUrl,
    createdBy: campaign.createdBy,
    localNumber: null,
    language: null,
    test: campaign.sandbox,
    at: context.now,
  };
}

function toDelivery({ recipient, uniqId }: { recipient: CampaignRecipient; uniqId: string }, context: MessageContext): Delivery<SmsPayload> {
  return {
    recordId: uniqId,
    accountId: context.campaign.accountId,
    amount: recipient.amount,
    test: context.campaign.sandbox,
    deliverBefore: null,
    at: context.now,
    scheduled: context.scheduled,
    availableAt: context.dueAt,
    payload: { from: context.sender, to: recipient.phone, text: recipient.message, secrets: [], validityMinutes: DEFAULT_VALIDITY_MINUTES },
  };
}
