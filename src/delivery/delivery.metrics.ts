import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import { Metrics } from '../metrics/metrics.js';
import { OutboxRepository } from './outbox.repository.js';
import { SmsConnectors } from './sms-connectors.js';

/** Delivery's gauges on /metrics: the outbox backlog, and each connector's binds, health and flow. */
@Injectable()
export class DeliveryMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly database: Database,
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
    private readonly connectors: SmsConnectors,
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
    const smpp = () => this.connectors.all().filter((connector) => connector.transport === 'smpp').map((connector) => connector.health());
    const each = (read: (health: ReturnType<typeof smpp>[number]) => number) => (set: (value: number, labels?: Record<string, string>) => void) => {
      for (const health of smpp()) set(read(health), { connector: health.id });
    };
    this.metrics.gauge('smpp_bound', '1 while every SMPP connector has a bind bound', (set) => set(smpp().every((health) => health.binds.bound > 0) ? 1 : 0));
    this.metrics.gauge('smpp_window_outstanding', 'Submits awaiting the SMSC answer, all connectors', (set) => set(smpp().reduce((sum, health) => sum + health.inFlight, 0)));
    this.metrics.gauge('smpp_binds_bound', 'Binds bound, by connector', each((health) => health.binds.bound), ['connector']);
    this.metrics.gauge('sms_connector_healthy', '1 while the connector can take messages (bound, not drained, circuit closed)', each((health) => (health.healthy ? 1 : 0)), ['connector']);
    this.metrics.gauge('sms_connector_rate', 'Submits per second allowed now by the adaptive rate (-1: no limit)', each((health) => health.rate ?? -1), ['connector']);
  }
}
