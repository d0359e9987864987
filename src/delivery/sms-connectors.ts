import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { Database } from '../database/database.js';
import type { ConnectorSettings } from '../routing/routing-file.js';
import type { RoutingTable } from '../routing/routing-table.js';
import { SmsRoutes } from '../routing/sms-routes.service.js';
import { ConnectorDrainRepository } from './connector-drain.repository.js';
import { DeliveryReceipts } from './delivery-receipts.js';
import { InboundMessages } from './inbound-messages.js';
import { LogSmsProvider } from './providers/log-sms.provider.js';
import { ProviderConnector } from './providers/provider-connector.js';
import { SmppSmsProvider } from './providers/smpp/smpp-sms.provider.js';
import { RoutingMetrics } from './routing.metrics.js';
import type { SmsConnector } from './sms-connector.js';

/** How often each instance reads which connectors the operator drained. */
const DRAINS_READ_MS = 2_000;

/**
 * The connectors of the routing table in force, bound on this instance. When
 * the table changes (SIGHUP), a connector whose settings are the same keeps
 * its binds; a new or changed one is started, and one that left is stopped
 * once its submits in flight have their answer. Drains are kept in the
 * database, so that one on any instance holds on all of them.
 */
@Injectable()
export class SmsConnectors implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(SmsConnectors.name);
  private readonly connectors = new Map<string, { settings: string; connector: SmsConnector }>();
  private readonly readyListeners = new Set<() => void>();
  private drained = new Set<string>();

  constructor(
    private readonly routes: SmsRoutes,
    private readonly receipts: DeliveryReceipts,
    private readonly inbound: InboundMessages,
    private readonly log: LogSmsProvider,
    private readonly metrics: RoutingMetrics,
    private readonly database: Database,
    private readonly drains: ConnectorDrainRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.follow(this.routes.table);
    this.routes.onChange((table) => this.follow(table));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.connectors.values()].map(({ connector }) => connector.stop()));
    this.connectors.clear();
  }

  get(id: string): SmsConnector | undefined {
    return this.connectors.get(id)?.connector;
  }

  all(): SmsConnector[] {
    return [...this.connectors.values()].map(({ connector }) => connector);
  }

  /** Called whenever any connector becomes able to take messages again. */
  onReady(listener: () => void): void {
    this.readyListeners.add(listener);
  }

  /** Takes the connector out of every route on every instance (`drained`), or puts it back. */
  async setDrained(id: string, drained: boolean): Promise<void> {
    await this.database.transaction((sql) => (drained ? this.drains.drain(sql, id, this.clock.now()) : this.drains.enable(sql, id)));
    if (drained) this.drained.add(id);
    else this.drained.delete(id);
    this.get(id)?.setDrained(drained);
    if (!drained) this.ready();
  }

  @Interval(DRAINS_READ_MS)
  async readDrains(): Promise<void> {
    try {
      const ids = [...this.connectors.keys()];
      const drained = new Set(await this.database.run((sql) => this.drains.drained(sql, ids)));
      const enabled = [...this.drained].some((id) => !drained.has(id));
      this.drained = drained;
      for (const connector of this.all()) connector.setDrained(drained.has(connector.id));
      if (enabled) this.ready();
    } catch (error) {
      this.logger.warn({ err: error }, 'drained connectors not read; the last ones read stay');
    }
  }

  private follow(table: RoutingTable): void {
    const wanted = new Map(table.connectors.map((settings) => [settings.id, settings]));
    for (const [id, { settings, connector }] of this.connectors) {
      if (JSON.stringify(wanted.get(id)) === settings) continue;
      this.connectors.delete(id);
      connector.stop().catch((error: unknown) => this.logger.warn({ err: error, connector: id }, 'connector not stopped cleanly'));
    }
    for (const [id, settings] of wanted) {
      if (this.connectors.has(id)) continue;
      const connector = this.create(settings);
      connector.setDrained(this.drained.has(id));
      connector.onReady(() => this.ready());
      this.connectors.set(id, { settings: JSON.stringify(settings), connector });
      connector.start();
    }
  }

  private create(settings: ConnectorSettings): SmsConnector {
    if (settings.url === 'log:') return new ProviderConnector(settings.id, this.log, this.metrics);
    return new SmppSmsProvider(settings, this.receipts, this.inbound, this.metrics, () => this.clock.now().getTime());
  }

  private ready(): void {
    for (const listener of this.readyListeners) listener();
  }
}
