import { Module } from '@nestjs/common';
import { webhookConfig, type WebhookConfig } from '../config/webhook.config.js';
import { AccountWebhookController } from './account-webhook.controller.js';
import { systemResolver, URL_GUARD, UrlGuard, WEBHOOK_RESOLVER, type Resolver } from './url-guard.js';
import { WEBHOOK_SENDER, WebhookWorker } from './webhook.worker.js';
import { WebhookEventRepository } from './webhook-event.repository.js';
import { WebhookEvents } from './webhook-events.js';
import { WebhookHousekeeping } from './webhook.housekeeping.js';
import { WebhookSecretsModule } from './webhook-secrets.module.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookSettingsService } from './webhook-settings.service.js';
import { WebhookSubjects } from './webhook-subjects.js';

/** The account's webhook settings and secrets, the webhook outbox and its dispatcher. */
@Module({
  imports: [WebhookSecretsModule],
  controllers: [AccountWebhookController],
  providers: [
    WebhookEventRepository,
    WebhookEvents,
    WebhookSubjects,
    WebhookSettingsService,
    WebhookWorker,
    WebhookHousekeeping,
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
    {
      provide: URL_GUARD,
      inject: [WEBHOOK_RESOLVER, webhookConfig.KEY],
      useFactory: (resolver: Resolver, config: WebhookConfig) => new UrlGuard(resolver, config.allowPrivateUrls),
    },
    {
      provide: WEBHOOK_SENDER,
      inject: [URL_GUARD, webhookConfig.KEY],
      useFactory: (guard: UrlGuard, config: WebhookConfig) => new WebhookSender(guard, config.timeoutMs),
    },
  ],
  exports: [WebhookEvents, WebhookSubjects, URL_GUARD],
})
export class WebhookModule {}
