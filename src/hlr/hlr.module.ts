import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { hlrConfig, type HlrConfig } from '../config/hlr.config.js';
import { SendingModule } from '../sending/sending.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { HlrLookupRepository } from './hlr-lookup.repository.js';
import { HLR_PROVIDER, SANDBOX_HLR_PROVIDER, type HlrProvider } from './hlr-provider.js';
import { HlrController } from './hlr.controller.js';
import { HlrService } from './hlr.service.js';
import { HlrWorker } from './hlr.worker.js';
import { LocalHlrProvider } from './local-hlr.provider.js';
import { SandboxHlrProvider } from './sandbox-hlr.provider.js';
import { SubmitHlr } from './submit-hlr.usecase.js';
import { VonageHlrProvider } from './vonage-hlr.provider.js';

function providerFor(config: HlrConfig): HlrProvider {
  if (config.provider === 'local') return new LocalHlrProvider();
  if (!config.apiKey || !config.apiSecret) throw new Error('HLR_PROVIDER=http needs HLR_API_KEY and HLR_API_SECRET');
  return new VonageHlrProvider({ url: config.url, apiKey: config.apiKey, apiSecret: config.apiSecret, timeoutMs: config.timeoutMs, retries: config.retries });
}

/** HLR lookups: accepted and charged at `POST /hlr`, answered by the lookup worker from the configured provider. */
@Module({
  imports: [BillingModule, SendingModule, WebhookModule],
  controllers: [HlrController],
  providers: [
    HlrLookupRepository,
    HlrService,
    SubmitHlr,
    HlrWorker,
    { provide: HLR_PROVIDER, inject: [hlrConfig.KEY], useFactory: providerFor },
    { provide: SANDBOX_HLR_PROVIDER, useValue: new SandboxHlrProvider() },
  ],
})
export class HlrModule {}
