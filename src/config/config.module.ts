import { ConfigModule } from '@nestjs/config';
import { appConfig } from './app.config.js';
import { campaignConfig } from './campaign.config.js';
import { contactImportConfig } from './contact-import.config.js';
import { databaseConfig } from './database.config.js';
import { deliveryConfig } from './delivery.config.js';
import { hlrConfig } from './hlr.config.js';
import { parseEnvironment } from './environment.js';
import { optOutConfig } from './opt-out.config.js';
import { otpConfig } from './otp.config.js';
import { routingConfig } from './routing.config.js';
import { secretsConfig } from './secrets.config.js';
import { smsConfig } from './sms.config.js';
import { webhookConfig } from './webhook.config.js';

/** Reads `.env` when present, validates every variable at start-up, exposes typed namespaces. */
export const AppConfigModule = ConfigModule.forRoot({
  isGlobal: true,
  cache: true,
  load: [appConfig, databaseConfig, secretsConfig, otpConfig, deliveryConfig, webhookConfig, contactImportConfig, smsConfig, optOutConfig, hlrConfig, campaignConfig, routingConfig],
  validate: (raw) => {
    parseEnvironment(raw);
    return raw;
  },
});
