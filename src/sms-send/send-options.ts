import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { validateAs } from '../common/validation/request-validation.pipe.js';
import { smsConfig, type SmsConfig } from '../config/sms.config.js';
import { webhookConfig, type WebhookConfig } from '../config/webhook.config.js';
import type { Sql } from '../database/sql.js';
import { SenderDirectory } from '../sender/sender-directory.js';
import { URL_GUARD, type UrlGuard } from '../webhook/url-guard.js';
import type { DeliveryWindow } from './delivery-window.js';
import { DeliveryWindowDto } from './dto/delivery-window.dto.js';

/** `send_at` up to this far ahead sends now. */
const IMMEDIATE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The checks a send's options get, the same for POST /sms/send and campaigns (SPEC-2 §1.1). */
@Injectable()
export class SendOptions {
  constructor(
    private readonly senderDirectory: SenderDirectory,
    @Inject(URL_GUARD) private readonly urlGuard: UrlGuard,
    @Inject(smsConfig.KEY) private readonly config: SmsConfig,
    @Inject(webhookConfig.KEY) private readonly webhooks: WebhookConfig,
  ) {}

  /** When messages asked for at `sendAt` are due: now up to a minute ahead; 400 beyond `SMS_MAX_SCHEDULE_DAYS`. */
  dueAt(sendAt: Date | null, now: Date): Date {
    if (sendAt === null) return now;
    if (sendAt.getTime() > now.getTime() + this.config.maxScheduleDays * DAY_MS) {
      throw ApiError.invalidField('send_at', `doit être au plus dans ${this.config.maxScheduleDays} jours`);
    }
    return sendAt.getTime() > now.getTime() + IMMEDIATE_MS ? sendAt : now;
  }

  /** A delivery window checked field by field (400 `delivery_window.<field>: …`). */
  deliveryWindow(raw: object): DeliveryWindow {
    const { dto: window, errors } = validateAs(DeliveryWindowDto, raw as Record<string, unknown>, 'delivery_window.');
    if (errors.length > 0) throw ApiError.validation(errors);
    return window as DeliveryWindow;
  }

  /** https to a public address; the SSRF guard again before every call. */
  async vetWebhookUrl(raw: string): Promise<string> {
    try {
      const { url } = await this.urlGuard.vet(raw);
      if (url.protocol !== 'https:' && !this.webhooks.allowPrivateUrls) throw new Error('https only');
      return raw;
    } catch {
      throw ApiError.invalidField('webhook_url', 'adresse non autorisée');
    }
  }

  /** The named sender (or the account's default), which must be approved. */
  async resolveSender(sql: Sql, accountId: string, name: string | undefined): Promise<{ id: string; name: string }> {
    const sender = await this.senderDirectory.resolve(sql, accountId, name);
    if (!sender) throw ApiError.invalidField('sender', 'expéditeur inconnu');
    if (sender.status !== 'approved') throw ApiError.invalidField('sender', 'expéditeur non approuvé');
    return sender;
  }
}
