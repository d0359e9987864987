import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import { KnownNetworks } from './known-networks.repository.js';
import type { Traffic } from './routing-file.js';
import type { Destination, Route } from './routing-table.js';
import { SmsRoutes } from './sms-routes.service.js';

/**
 * Which route a destination takes under the table in force: at acceptance, a
 * number no route takes is refused before anything is debited; at hand-over
 * and in the operator's dry run, the route whose targets are chosen from.
 */
@Injectable()
export class SmsDestinations {
  constructor(
    private readonly routes: SmsRoutes,
    private readonly networks: KnownNetworks,
    private readonly database: Database,
  ) {}

  /** The numbers among `numbers` that no route takes for this account and traffic. */
  async unroutable(sql: Sql, accountId: string, traffic: Traffic, numbers: readonly string[]): Promise<Set<string>> {
    const table = this.routes.table;
    const networks = table.usesNetworks ? await this.networks.of(sql, numbers) : null;
    const refused = new Set<string>();
    for (const to of numbers) {
      if (!table.match({ to, accountId, traffic, mccmnc: networks?.get(to) ?? null })) refused.add(to);
    }
    return refused;
  }

  /** The route of one destination now, and the network it was matched with (read only when a route needs it). */
  async routeOf(destination: Omit<Destination, 'mccmnc'>): Promise<{ route: Route | null; mccmnc: string | null }> {
    const table = this.routes.table;
    const mccmnc = table.usesNetworks ? ((await this.database.run((sql) => this.networks.of(sql, [destination.to]))).get(destination.to) ?? null) : null;
    return { route: table.match({ ...destination, mccmnc }), mccmnc };
  }
}
