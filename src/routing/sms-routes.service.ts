import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { deliveryConfig, type DeliveryConfig } from '../config/delivery.config.js';
import { ConfigurationError } from '../config/environment.js';
import { routingConfig, type RoutingConfig } from '../config/routing.config.js';
import { readRoutingFile, RoutingFileError, singleConnector, type RoutingSettings } from './routing-file.js';
import { RoutingTable } from './routing-table.js';

/**
 * The routing table in force on this instance: `SMS_ROUTING_FILE`, else one
 * connector that takes everything (`default` for `SMPP_URL`, `log` for the
 * log). A bad file stops the start-up, naming each problem; `SIGHUP` reads the
 * file again, and a bad one is refused and logged while the table in force
 * stays. Those who keep state per connector follow the changes (`onChange`).
 */
@Injectable()
export class SmsRoutes implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SmsRoutes.name);
  private current: RoutingTable;
  private readonly listeners = new Set<(table: RoutingTable) => void>();
  private readonly onSignal = () => void this.reload();

  constructor(
    @Inject(routingConfig.KEY) private readonly config: RoutingConfig,
    @Inject(deliveryConfig.KEY) private readonly delivery: DeliveryConfig,
  ) {
    try {
      this.current = new RoutingTable(this.read());
    } catch (error) {
      throw error instanceof RoutingFileError ? new ConfigurationError(error.message) : error;
    }
  }

  get table(): RoutingTable {
    return this.current;
  }

  onChange(listener: (table: RoutingTable) => void): void {
    this.listeners.add(listener);
  }

  /** Reads the file again: true when its table now applies, false when it was refused (the old one stays). */
  reload(): boolean {
    if (!this.config.file) {
      this.logger.warn('SIGHUP received, but no SMS_ROUTING_FILE is set: nothing to reload');
      return false;
    }
    let settings: RoutingSettings;
    try {
      settings = this.read();
    } catch (error) {
      const problems = error instanceof RoutingFileError ? error.problems : [String(error)];
      this.logger.error({ file: this.config.file, problems }, 'routing file refused; the routes in force stay');
      return false;
    }
    this.current = new RoutingTable(settings);
    for (const listener of this.listeners) listener(this.current);
    this.logger.log({ file: this.config.file, connectors: settings.connectors.length, routes: settings.routes.length }, 'routing file reloaded');
    return true;
  }

  onApplicationBootstrap(): void {
    process.on('SIGHUP', this.onSignal);
  }

  onApplicationShutdown(): void {
    process.off('SIGHUP', this.onSignal);
  }

  private read(): RoutingSettings {
    if (this.config.file) return readRoutingFile(this.config.file, this.delivery.smppWindow);
    if (this.delivery.smsProvider === 'smpp' && this.delivery.smppUrl) {
      return singleConnector('SMPP_URL', { id: 'default', url: this.delivery.smppUrl, window: this.delivery.smppWindow });
    }
    return singleConnector('SMS_PROVIDER=log', { id: 'log', url: 'log:', window: this.delivery.smppWindow });
  }
}
