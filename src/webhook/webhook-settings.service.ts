import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { Database } from '../database/database.js';
import { AccountWebhookRepository, type AccountWebhook } from './account-webhook.repository.js';
import type { UpdateWebhookDto, WebhookConfigDto } from './dto/webhook-config.dto.js';
import { BlockedUrl, URL_GUARD, type UrlGuard } from './url-guard.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types.js';
import { WebhookSecretService } from './webhook-secret.service.js';

/** GET/PUT /account/webhook and the rotation of its secret. */
@Injectable()
export class WebhookSettingsService {
  constructor(
    private readonly database: Database,
    private readonly webhooks: AccountWebhookRepository,
    private readonly secrets: WebhookSecretService,
    private readonly clock: Clock,
    @Inject(URL_GUARD) private readonly guard: UrlGuard,
  ) {}

  async get(accountId: string): Promise<WebhookConfigDto> {
    const webhook = await this.database.run((sql) => this.webhooks.find(sql, accountId));
    return toWebhookConfigDto(webhook, null);
  }

  /** Saves the URL (vetted by the SSRF guard now, and again before every attempt) and the events; re-enables a disabled webhook. */
  async update(accountId: string, body: UpdateWebhookDto): Promise<WebhookConfigDto> {
    const events = body.events ?? [];
    const errors: string[] = [];
    if (body.url !== null) {
      try {
        await this.guard.vet(body.url);
      } catch (error) {
        if (!(error instanceof BlockedUrl)) throw error;
        errors.push(`url: ${error.reason}`);
      }
    }
    const unknown = events.findIndex((type) => !(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(type));
    if (unknown >= 0) errors.push(`events[${unknown}]: type d'évènement inconnu`);
    else if (new Set(events).size !== events.length) errors.push('events: contient un type en double');
    if (errors.length > 0) throw ApiError.validation(errors);

    const { webhook, secret } = await this.database.transaction(async (sql) => {
      const created = await this.secrets.ensureIn(sql, accountId);
      await this.webhooks.save(sql, accountId, body.url, events, this.clock.now());
      return { webhook: await this.webhooks.find(sql, accountId), secret: created };
    });
    return toWebhookConfigDto(webhook, secret);
  }

  rotateSecret(accountId: string): Promise<string> {
    return this.secrets.rotate(accountId);
  }
}

const toWebhookConfigDto = (webhook: AccountWebhook | null, secret: string | null): WebhookConfigDto => ({
  url: webhook?.url ?? null,
  events: (webhook?.events ?? []) as WebhookEventType[],
  disabled_at: webhook?.disabledAt?.toISOString() ?? null,
  secret,
});
