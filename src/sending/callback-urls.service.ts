import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { webhookConfig, type WebhookConfig } from '../config/webhook.config.js';
import { URL_GUARD, type UrlGuard } from '../webhook/url-guard.js';

/** A send's own `webhook_url` (SPEC-2 §2): https to a public address; the SSRF guard checks it again before every call. */
@Injectable()
export class CallbackUrls {
  constructor(
    @Inject(URL_GUARD) private readonly urlGuard: UrlGuard,
    @Inject(webhookConfig.KEY) private readonly webhooks: WebhookConfig,
  ) {}

  /** The URL as given, or 400 `webhook_url: adresse non autorisée`. */
  async vet(raw: string): Promise<string> {
    try {
      const { url } = await this.urlGuard.vet(raw);
      if (url.protocol !== 'https:' && !this.webhooks.allowPrivateUrls) throw new Error('https only');
      return raw;
    } catch {
      throw ApiError.invalidField('webhook_url', 'adresse non autorisée');
    }
  }
}
