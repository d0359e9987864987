import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { Metrics } from '../metrics/metrics.js';
import { OutboxRepository } from './outbox.repository.js';
import { SmppSmsProvider } from './providers/smpp/smpp-sms.provider.js';
import { SMS_PROVIDER, type SmsProvider } from './sms-provider.js';

/** Delivery's gauges on /metrics: the outbox backlog, the SMPP bind and its window. */
@Injectable()
export class DeliveryMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly database: Database,
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
    @Inject(SMS_PROVIDER) private readonly smsProvider: SmsProvider,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('outbox_backlog', 'Messages accepted and not yet handed over or failed', async (set) => {
      const backlog = await this.database.run((sql) => this.outbox.backlog(sql, this.clock.now()));
      set(backlog.count);
    });
    this.metrics.gauge('outbox_oldest_age_seconds', 'Age of the oldest message not yet handed over (0 when none)', async (set) => {
      const oldest = await this.database.run((sql) => this.outbox.oldest(sql, this.clock.now()));
      set(oldest ? Math.max(0, (this.clock.now().getTime() - oldest.getTime()) / 1000) : 0);
    });
    const smpp = this.smsProvider instanceof SmppSmsProvider ? this.smsProvider : null;
    if (smpp) {
      this.metrics.gauge('smpp_bound', '1 while bound to the SMSC', (set) => set(smpp.state === 'bound' ? 1 : 0));
      this.metrics.gauge('smpp_window_outstanding', 'Submits awaiting the SMSC answer', (set) => set(smpp.outstanding));
    }
  }
}
