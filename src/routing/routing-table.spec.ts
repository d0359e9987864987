import type { RouteSettings, RoutingSettings } from './routing-file.js';
import { RoutingTable, type Destination } from './routing-table.js';

const route = (settings: Partial<RouteSettings> & Pick<RouteSettings, 'name' | 'targets'>): RouteSettings => ({
  prefixes: [],
  mccmnc: [],
  accounts: [],
  traffic: 'any',
  strategy: 'failover',
  ...settings,
});
const target = (connector: string, extra: { cost?: number; weight?: number } = {}) => ({ connector, cost: extra.cost ?? null, weight: extra.weight ?? 1 });
const table = (...routes: RouteSettings[]) =>
  new RoutingTable({ source: 'test', connectors: [], routes, partsWaitSeconds: 600 } satisfies RoutingSettings);
const to = (number: string, extra: Partial<Destination> = {}): Destination => ({ to: number, accountId: 'acc-1', traffic: 'bulk', mccmnc: null, ...extra });
const all = () => true;

describe(RoutingTable.name, () => {
  describe('matching', () => {
    const routes = table(
      route({ name: 'otp-orange', prefixes: ['+22507'], traffic: 'otp', targets: [target('a')] }),
      route({ name: 'mtn-by-network', mccmnc: ['61205'], targets: [target('b')] }),
      route({ name: 'vip', accounts: ['acc-vip'], targets: [target('c')] }),
      route({ name: 'orange', prefixes: ['+22507', '+22508'], targets: [target('b')] }),
    );

    it.each([
      ['an OTP to an Orange number', to('+2250707070707', { traffic: 'otp' }), 'otp-orange'],
      ['a bulk message to the same number', to('+2250707070707'), 'orange'],
      ['a number whose stored HLR answer names MTN', to('+2250505050505', { mccmnc: '61205' }), 'mtn-by-network'],
      ['an account of its own route', to('+2250505050505', { accountId: 'ACC-VIP' }), 'vip'],
      ['a number no route takes', to('+33612345678'), null],
    ])('matches %s: the first route whose conditions all hold', (_, destination, name) => {
      expect(routes.match(destination)?.name ?? null).toBe(name);
    });

    it('knows whether any route needs the network', () => {
      expect(routes.usesNetworks).toBe(true);
      expect(table(route({ name: 'all', targets: [target('a')] })).usesNetworks).toBe(false);
    });
  });

  describe('strategies', () => {
    it('failover: the first available target, in order', () => {
      const failover = table(route({ name: 'f', targets: [target('a'), target('b'), target('c')] })).routes[0]!;

      expect(failover.choose(all)).toEqual({ target: target('a'), pick: 'primary' });
      expect(failover.choose((id) => id !== 'a')).toEqual({ target: target('b'), pick: 'fallback' });
      expect(failover.choose(() => false)).toBeNull();
    });

    it('least_cost: the cheapest available target, the first of equal costs', () => {
      const cheapest = table(
        route({ name: 'l', strategy: 'least_cost', targets: [target('a', { cost: 0.03 }), target('b', { cost: 0.01 }), target('c', { cost: 0.01 })] }),
      ).routes[0]!;

      expect(cheapest.choose(all)).toEqual({ target: target('b', { cost: 0.01 }), pick: 'primary' });
      expect(cheapest.choose((id) => id !== 'b')?.target.connector).toBe('c');
      expect(cheapest.choose((id) => id === 'a')).toEqual({ target: target('a', { cost: 0.03 }), pick: 'fallback' });
    });

    it('round_robin: smooth weighted turns over the available targets', () => {
      const turns = table(route({ name: 'r', strategy: 'round_robin', targets: [target('a', { weight: 2 }), target('b')] })).routes[0]!;

      const picks = Array.from({ length: 6 }, () => turns.choose(all)!.target.connector);
      expect(picks).toEqual(['a', 'b', 'a', 'a', 'b', 'a']);
      expect(turns.choose((id) => id === 'b')).toEqual({ target: target('b'), pick: 'fallback' });
    });
  });
});
