import { appConfig } from './app.config.js';
import { campaignConfig } from './campaign.config.js';
import { contactImportConfig } from './contact-import.config.js';
import { databaseConfig } from './database.config.js';
import { deliveryConfig } from './delivery.config.js';
import { fraudConfig } from './fraud.config.js';
import { hlrConfig } from './hlr.config.js';
import { optOutConfig } from './opt-out.config.js';
import { otpConfig } from './otp.config.js';
import { routingConfig } from './routing.config.js';
import { secretsConfig } from './secrets.config.js';
import { smsConfig } from './sms.config.js';
import { webhookConfig } from './webhook.config.js';

/** Every typed namespace of the settings: each reads and checks its variables when called. */
export const CONFIG_NAMESPACES = [
  appConfig,
  databaseConfig,
  secretsConfig,
  otpConfig,
  deliveryConfig,
  webhookConfig,
  contactImportConfig,
  smsConfig,
  optOutConfig,
  hlrConfig,
  campaignConfig,
  routingConfig,
  fraudConfig,
];
