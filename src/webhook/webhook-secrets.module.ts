import { Module } from '@nestjs/common';
import { AccountWebhookRepository } from './account-webhook.repository.js';
import { webhookSecretBoxProvider, WebhookSecretService } from './webhook-secret.service.js';

/** The accounts' signing secrets and webhook settings rows: for the webhook module and the command line. */
@Module({
  providers: [AccountWebhookRepository, WebhookSecretService, webhookSecretBoxProvider],
  exports: [AccountWebhookRepository, WebhookSecretService],
})
export class WebhookSecretsModule {}
