import type { ConnectorSettings, RouteSettings, RoutingSettings, TargetSettings, Traffic } from './routing-file.js';

/** What a route is matched on. */
export interface Destination {
  /** E.164. */
  to: string;
  accountId: string;
  traffic: Traffic;
  /** The number's network from a recent HLR answer, or null. */
  mccmnc: string | null;
}

/** The connector a route picks among those available now; `fallback` when it is not the one it picks with all of them available. */
export interface Choice {
  target: TargetSettings;
  pick: 'primary' | 'fallback';
}

/**
 * One route: its conditions (all of them must hold) and the strategy that
 * picks among its targets: `failover` the first available in order,
 * `least_cost` the cheapest available (order breaks ties), `round_robin`
 * smooth weighted round robin over the available ones (nginx's: each pick
 * adds every weight to its target's score, takes the highest, and takes the
 * total off it), so that weights 2:1 give A A B rather than bursts.
 */
export class Route {
  private readonly scores = new Map<string, number>();
  private readonly ideal: TargetSettings;

  constructor(readonly settings: RouteSettings) {
    this.ideal = settings.strategy === 'least_cost' ? cheapest(settings.targets) : settings.targets[0]!;
  }

  get name(): string {
    return this.settings.name;
  }

  matches(destination: Destination): boolean {
    const { prefixes, mccmnc, accounts, traffic } = this.settings;
    return (
      (traffic === 'any' || traffic === destination.traffic) &&
      (accounts.length === 0 || accounts.includes(destination.accountId.toLowerCase())) &&
      (prefixes.length === 0 || prefixes.some((prefix) => destination.to.startsWith(prefix))) &&
      (mccmnc.length === 0 || (destination.mccmnc !== null && mccmnc.includes(destination.mccmnc)))
    );
  }

  /**
   * The target to use now among those `available` says can take a message; null when none can. `dryRun` leaves the
   * round robin's turns where they are (the operator's `resolve`).
   */
  choose(available: (connector: string) => boolean, dryRun = false): Choice | null {
    const targets = this.settings.targets.filter((target) => available(target.connector));
    if (targets.length === 0) return null;
    const target = this.pickAmong(targets, dryRun);
    const primary = this.settings.strategy === 'round_robin' ? targets.length === this.settings.targets.length : target === this.ideal;
    return { target, pick: primary ? 'primary' : 'fallback' };
  }

  private pickAmong(targets: TargetSettings[], dryRun: boolean): TargetSettings {
    if (this.settings.strategy === 'failover') return targets[0]!;
    if (this.settings.strategy === 'least_cost') return cheapest(targets);
    const scores = new Map(targets.map((target) => [target.connector, (this.scores.get(target.connector) ?? 0) + target.weight]));
    const best = targets.reduce((best, target) => (scores.get(target.connector)! > scores.get(best.connector)! ? target : best));
    if (dryRun) return best;
    const total = targets.reduce((sum, target) => sum + target.weight, 0);
    for (const [connector, score] of scores) this.scores.set(connector, connector === best.connector ? score - total : score);
    return best;
  }
}

/** The routes of one version of the routing file, first match wins, and its connectors. */
export class RoutingTable {
  readonly routes: Route[];
  /** Whether any route matches on the network, which takes a look at stored HLR answers. */
  readonly usesNetworks: boolean;

  constructor(readonly settings: RoutingSettings) {
    this.routes = settings.routes.map((route) => new Route(route));
    this.usesNetworks = settings.routes.some((route) => route.mccmnc.length > 0);
  }

  get connectors(): ConnectorSettings[] {
    return this.settings.connectors;
  }

  match(destination: Destination): Route | null {
    for (const route of this.routes) if (route.matches(destination)) return route;
    return null;
  }
}

/** The first of the lowest cost. */
function cheapest(targets: TargetSettings[]): TargetSettings {
  return targets.reduce((best, target) => ((target.cost ?? Infinity) < (best.cost ?? Infinity) ? target : best));
}
