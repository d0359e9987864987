import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { uuidV7Floor } from '../common/ids.js';
import { Database } from '../database/database.js';
import { WebhookEventRepository } from './webhook-event.repository.js';

/** Settled events and attempts are kept this long. */
export const WEBHOOK_HISTORY_MS = 30 * 86_400_000;

/** Drops settled webhook events and attempts older than 30 days (events still waiting for a retry stay). */
@Injectable()
export class WebhookHousekeeping {
  private readonly logger = new Logger(WebhookHousekeeping.name);

  constructor(
    private readonly database: Database,
    private readonly events: WebhookEventRepository,
    private readonly clock: Clock,
  ) {}

  @Interval(10 * 60_000)
  async purge(): Promise<{ events: number; attempts: number }> {
    const before = new Date(this.clock.now().getTime() - WEBHOOK_HISTORY_MS);
    const attempts = await this.database.run((sql) => this.events.purgeAttempts(sql, before));
    const events = await this.database.run((sql) => this.events.purgeSettled(sql, uuidV7Floor(before)));
    if (events + attempts > 0) this.logger.log({ events, attempts }, 'old webhook events and attempts purged');
    return { events, attempts };
  }
}
