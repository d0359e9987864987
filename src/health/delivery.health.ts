import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { Clock } from '../common/clock.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import { Database } from '../database/database.js';
import { OutboxRepository } from '../delivery/outbox.repository.js';
import { SmppSmsProvider } from '../delivery/providers/smpp/smpp-sms.provider.js';
import { SMS_PROVIDER, type SmsProvider } from '../delivery/sms-provider.js';

/** Whether accepted messages leave: the SMSC bind, and how long the oldest one has waited. */
@Injectable()
export class DeliveryHealth {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly database: Database,
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
    @Inject(SMS_PROVIDER) private readonly smsProvider: SmsProvider,
    @Inject(deliveryConfig.KEY) private readonly config: DeliveryConfig,
  ) {}

  /** Null when SMS do not go over SMPP. */
  smppBind(): (() => HealthIndicatorResult) | null {
    const smpp = this.smsProvider instanceof SmppSmsProvider ? this.smsProvider : null;
    if (!smpp) return null;
    return () => {
      const indicator = this.indicators.check('smpp');
      return smpp.state === 'bound' ? indicator.up({ state: smpp.state }) : indicator.down({ state: smpp.state });
    };
  }

  async outboxAge(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('outbox');
    const oldest = await this.database.run((sql) => this.outbox.oldest(sql, this.clock.now()));
    const ageSeconds = oldest ? Math.max(0, Math.floor((this.clock.now().getTime() - oldest.getTime()) / 1000)) : 0;
    const limit = this.config.outboxMaxAgeSeconds;
    return ageSeconds <= limit ? indicator.up({ oldestAgeSeconds: ageSeconds }) : indicator.down({ oldestAgeSeconds: ageSeconds, limitSeconds: limit });
  }
}
