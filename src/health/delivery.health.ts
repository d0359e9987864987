import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { Clock } from '../common/clock.js';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import { Database } from '../database/database.js';
import { OutboxRepository } from '../delivery/outbox.repository.js';
import { SmsConnectors } from '../delivery/sms-connectors.js';
import { SmsRoutes } from '../routing/sms-routes.service.js';

/** Whether accepted messages leave: every route has a healthy connector, and the oldest message has not waited too long. */
@Injectable()
export class DeliveryHealth {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly database: Database,
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
    private readonly connectors: SmsConnectors,
    private readonly routes: SmsRoutes,
    @Inject(deliveryConfig.KEY) private readonly config: DeliveryConfig,
  ) {}

  /**
   * Null when no SMS goes over SMPP. Down only when a route has no healthy target; `state` is `bound` when every
   * SMPP connector has a bind up, `partial` when some do, `down` when none does. Under a routing file it also
   * reports each connector and the routes left without one.
   */
  smpp(): (() => HealthIndicatorResult) | null {
    if (!this.connectors.all().some((connector) => connector.transport === 'smpp')) return null;
    return () => {
      const health = this.connectors.all().map((connector) => connector.health());
      const healthy = new Set(health.filter((each) => each.healthy).map((each) => each.id));
      const stranded = this.routes.table.routes.filter((route) => !route.settings.targets.some((target) => healthy.has(target.connector))).map((route) => route.name);
      const smpp = health.filter((each) => this.connectors.get(each.id)?.transport === 'smpp');
      const bound = smpp.filter((each) => each.binds.bound > 0).length;
      const state = bound === smpp.length ? 'bound' : bound > 0 ? 'partial' : 'down';
      const details: Record<string, unknown> = this.routes.table.settings.source === 'SMPP_URL'
        ? { state }
        : {
            state,
            connectors: Object.fromEntries(health.map(({ id, healthy, binds, circuit, drained }) => [id, { healthy, binds, circuit, drained }])),
            routes_without_connector: stranded,
          };
      const indicator = this.indicators.check('smpp');
      return stranded.length === 0 ? indicator.up(details) : indicator.down(details);
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
