import { registerAs, type ConfigType } from '@nestjs/config';
import { parseEnvironment } from './environment.js';

export const campaignConfig = registerAs('campaign', () => {
  const env = parseEnvironment(process.env);
  return {
    /** Recipients a campaign may reach once its groups are expanded. */
    maxRecipients: env.CAMPAIGN_MAX_RECIPIENTS,
    /** A campaign claimed by an instance that died is taken up again after this long. */
    leaseMs: env.CAMPAIGN_LEASE_SECONDS * 1000,
  };
});

export type CampaignConfig = ConfigType<typeof campaignConfig>;
