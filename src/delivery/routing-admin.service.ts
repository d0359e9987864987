import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { ListPage } from '../common/list/page.js';
import { parsePhone } from '../common/recipient.js';
import type { Route } from '../routing/routing-table.js';
import { SmsDestinations } from '../routing/sms-destinations.service.js';
import { SmsRoutes } from '../routing/sms-routes.service.js';
import type { ConnectorDto } from './dto/connector.dto.js';
import type { RouteResolveQueryDto } from './dto/route-resolve-query.dto.js';
import type { RouteDto, RouteResolutionDto, RouteTargetDto } from './dto/route.dto.js';
import type { ConnectorHealth } from './sms-connector.js';
import { SmsConnectors } from './sms-connectors.js';

export const CONNECTOR_NOT_FOUND = 'Connecteur non trouvé';
/** Matches no route limited to accounts: a dry run without an account. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/** The operator's view of the connectors and routes in force on the instance that answers, and its drains. */
@Injectable()
export class RoutingAdmin {
  constructor(
    private readonly connectors: SmsConnectors,
    private readonly routes: SmsRoutes,
    private readonly destinations: SmsDestinations,
  ) {}

  listConnectors(): ListPage<ConnectorDto> {
    return whole(this.connectors.all().map((connector) => toConnectorDto(connector.health())));
  }

  /** Takes the connector out of every route, on every instance; 409 when it is drained already. */
  drain(id: string): Promise<ConnectorDto> {
    return this.setDrained(id, true, 'status: connecteur déjà retiré des routes');
  }

  /** Puts a drained connector back; 409 when it is not drained. */
  enable(id: string): Promise<ConnectorDto> {
    return this.setDrained(id, false, 'status: connecteur déjà actif');
  }

  listRoutes(): ListPage<RouteDto> {
    return whole(
      this.routes.table.routes.map((route) => ({
        name: route.name,
        match: { prefixes: route.settings.prefixes, mccmnc: route.settings.mccmnc, accounts: route.settings.accounts, traffic: route.settings.traffic },
        strategy: route.settings.strategy,
        targets: this.targetsOf(route),
      })),
    );
  }

  /** The route a message to `to` would take now, its targets' health and the one it would be handed to; nothing is sent. */
  async resolve(query: RouteResolveQueryDto): Promise<RouteResolutionDto> {
    const to = parsePhone(query.to)!.e164;
    const { route, mccmnc } = await this.destinations.routeOf({ to, accountId: query.account_id ?? NO_ACCOUNT, traffic: query.traffic ?? 'bulk' });
    if (!route) return { route: null, targets: [], chosen: null, mccmnc };
    const chosen = route.choose((id) => this.connectors.get(id)?.available() ?? false, true);
    return { route: route.name, targets: this.targetsOf(route), chosen: chosen?.target.connector ?? null, mccmnc };
  }

  private targetsOf(route: Route): RouteTargetDto[] {
    return route.settings.targets.map((target) => ({
      connector: target.connector,
      healthy: this.connectors.get(target.connector)?.health().healthy ?? false,
      cost: target.cost,
      weight: target.weight,
    }));
  }

  private async setDrained(id: string, drained: boolean, already: string): Promise<ConnectorDto> {
    const connector = this.connectors.get(id);
    if (!connector) throw ApiError.notFound(CONNECTOR_NOT_FOUND);
    if (connector.health().drained === drained) throw ApiError.conflict('transition_invalide', [already]);
    await this.connectors.setDrained(id, drained);
    return toConnectorDto(connector.health());
  }
}

function toConnectorDto(health: ConnectorHealth): ConnectorDto {
  return {
    id: health.id,
    healthy: health.healthy,
    binds: health.binds,
    circuit: health.circuit,
    drained: health.drained,
    tps: health.tps,
    rate: health.rate,
    in_flight: health.inFlight,
    last_error: health.lastError,
    since: health.since.toISOString(),
  };
}

/** A list that is never long enough for a second page. */
const whole = <T>(items: T[]): ListPage<T> => ({ items, next_cursor: null, has_more: false });
