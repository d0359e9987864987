import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import type { Sql } from '../database/sql.js';
import type { Route } from '../routing/routing-table.js';
import { SmsDestinations } from '../routing/sms-destinations.service.js';
import { SmsRoutes } from '../routing/sms-routes.service.js';
import { PermanentDeliveryError, TransientDeliveryError } from './delivery-errors.js';
import { RoutingMetrics } from './routing.metrics.js';
import { freshProgress, readProgress, type PartsProgress, type SmsConnector } from './sms-connector.js';
import { SmsConnectors } from './sms-connectors.js';
import type { SmsAccepted, SmsProvider, SmsSubmission } from './sms-provider.js';

/**
 * Every SMS leaves through here: the connector is chosen when the message
 * leaves the outbox, never before, by the route its destination takes now,
 * among the targets that can take a message now (bound, not drained, circuit
 * closed or free for its probe). What a connector could not take goes back to
 * the outbox and takes a connector afresh at its next claim; nothing waits in
 * a connector of its own. The parts of a long message stick to the connector
 * that took the first ones: the rest waits for it for `parts_wait_seconds`,
 * after which the whole message goes elsewhere under a new reference.
 * Finding no connector uses up none of the message's attempts.
 */
@Injectable()
export class SmsRouter implements SmsProvider {
  readonly name = null;
  readonly sendsReceipts = true;

  constructor(
    private readonly connectors: SmsConnectors,
    private readonly destinations: SmsDestinations,
    private readonly routes: SmsRoutes,
    private readonly clock: Clock,
    private readonly metrics: RoutingMetrics,
  ) {}

  onReady(listener: () => void): void {
    this.connectors.onReady(listener);
  }

  async accepted(sql: Sql, providerIds: string[], at: Date, connector: string): Promise<void> {
    await this.connectors.get(connector)?.accepted?.(sql, providerIds, at);
  }

  async submit(sms: SmsSubmission): Promise<SmsAccepted> {
    const { route } = await this.destinations.routeOf({ to: sms.to, accountId: sms.accountId, traffic: sms.traffic });
    if (!route) throw new PermanentDeliveryError('no route takes this destination', 'NOROUTE');
    const { connector, progress } = this.connectorFor(route, readProgress(sms.resume));
    const taken = progress.providerIds.length;
    try {
      const providerIds = await connector.submit(sms, progress);
      this.costOf(route, connector, providerIds.length - taken);
      return { providerIds, provider: connector.id, receiptsExpected: connector.sendsReceipts };
    } catch (error) {
      this.costOf(route, connector, progress.providerIds.length - taken);
      if (!(error instanceof TransientDeliveryError)) throw error;
      if (progress.providerIds.length > 0) progress.since ??= this.clock.now().getTime();
      progress.failure = error.reason;
      throw new TransientDeliveryError(error.message, JSON.stringify(progress), error.countsAttempt, error.reason);
    }
  }

  /** The connector for the message now, and its progress there (fresh when it moves); throws a wait when there is none. */
  private connectorFor(route: Route, progress: PartsProgress): { connector: SmsConnector; progress: PartsProgress } {
    const previous = progress.connector;
    if (progress.providerIds.length > 0 && previous !== null) {
      const sticky = this.connectors.get(previous);
      if (sticky?.available()) return { connector: sticky, progress };
      const waitUntil = (progress.since ?? 0) + this.routes.table.settings.partsWaitSeconds * 1000;
      if (sticky && this.clock.now().getTime() < waitUntil) {
        throw waiting(`its first parts went through ${previous}, which cannot take the rest now`, progress);
      }
      progress.failure = 'parts';
    }
    const choice = route.choose((id) => this.connectors.get(id)?.available() ?? false);
    if (!choice) throw waiting(`no connector of route ${route.name} can take it now`, progress);
    const connector = this.connectors.get(choice.target.connector)!;
    this.metrics.routed.inc({ route: route.name, connector: connector.id, pick: choice.pick });
    if (previous === connector.id && progress.failure !== 'parts') return { connector, progress };
    if (previous !== null && previous !== connector.id) {
      this.metrics.rerouted.inc({ from: previous, to: connector.id, reason: progress.failure ?? 'unavailable' });
    }
    return { connector, progress: freshProgress(connector.id, progress) };
  }

  private costOf(route: Route, connector: SmsConnector, parts: number): void {
    const cost = route.settings.targets.find((target) => target.connector === connector.id)?.cost;
    if (cost && parts > 0) this.metrics.supplierCost.inc({ connector: connector.id }, cost * parts);
  }
}

/** No connector can take the message now: it waits in the outbox, using up none of its attempts. */
function waiting(reason: string, progress: PartsProgress): TransientDeliveryError {
  return new TransientDeliveryError(reason, JSON.stringify(progress), false, 'unavailable');
}
