import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { OptOutController } from './opt-out.controller.js';
import { OptOutRepository } from './opt-out.repository.js';
import { OptOutService } from './opt-out.service.js';
import { OptOutWriter } from './opt-out-writer.js';
import { UNSUBSCRIBE_LINKS, UnsubscribeLinks } from './unsubscribe-links.js';
import { UnsubscribeController } from './unsubscribe.controller.js';
import { UnsubscribeService } from './unsubscribe.service.js';

/** The opt-out list: its routes, its changes with their webhook events, and the unsubscribe links of messages. */
@Module({
  imports: [WebhookModule, AccountModule],
  controllers: [OptOutController, UnsubscribeController],
  providers: [
    OptOutRepository,
    OptOutWriter,
    OptOutService,
    UnsubscribeService,
    { provide: UNSUBSCRIBE_LINKS, inject: [secretsConfig.KEY], useFactory: (secrets: SecretsConfig) => new UnsubscribeLinks(secrets.otpSecret) },
  ],
  exports: [OptOutRepository, OptOutWriter, OptOutService, UNSUBSCRIBE_LINKS],
})
export class OptOutModule {}
