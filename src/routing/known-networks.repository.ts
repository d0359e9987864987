import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { routingConfig, type RoutingConfig } from '../config/routing.config.js';
import { placeholders, type Sql } from '../database/sql.js';

const CHUNK = 500;
/** A number's network is read again after this long, so that a new HLR answer is taken up soon. */
const CACHED_MS = 60_000;
const CACHE_SIZE = 50_000;

/**
 * The network (MCC-MNC) of numbers from their latest HLR answer younger than
 * HLR_ROUTING_TTL, for routes that match on it. Any account's lookup of the
 * number counts (the network is a fact about the number); sandbox answers do
 * not. The send path never calls an HLR. Answers are kept in memory for a
 * minute, misses too, so that a lot to one network costs one read per number.
 */
@Injectable()
export class KnownNetworks {
  private readonly cache = new Map<string, { mccmnc: string | null; until: number }>();

  constructor(
    private readonly clock: Clock,
    @Inject(routingConfig.KEY) private readonly config: RoutingConfig,
  ) {}

  async of(sql: Sql, numbers: readonly string[]): Promise<Map<string, string | null>> {
    const now = this.clock.now().getTime();
    const found = new Map<string, string | null>();
    const missing: string[] = [];
    for (const number of new Set(numbers)) {
      const cached = this.cache.get(number);
      if (cached && cached.until > now) found.set(number, cached.mccmnc);
      else missing.push(number);
    }
    for (let start = 0; start < missing.length; start += CHUNK) {
      const chunk = missing.slice(start, start + CHUNK);
      const rows = await sql.all<{ number: string; mccmnc: string }>(
        `SELECT number, mccmnc FROM hlr_lookup WHERE number IN (${placeholders(chunk)}) AND done_at >= ?
            AND status = 'completed' AND sandbox = ? AND mccmnc IS NOT NULL ORDER BY done_at`,
        [...chunk, new Date(now - this.config.hlrTtlMs), false],
      );
      const latest = new Map(rows.map((row) => [row.number, row.mccmnc]));
      for (const number of chunk) this.remember(number, latest.get(number) ?? null, now, found);
    }
    return found;
  }

  private remember(number: string, mccmnc: string | null, now: number, found: Map<string, string | null>): void {
    if (this.cache.size >= CACHE_SIZE) this.cache.clear();
    this.cache.set(number, { mccmnc, until: now + CACHED_MS });
    found.set(number, mccmnc);
  }
}
