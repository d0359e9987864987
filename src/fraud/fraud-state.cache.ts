import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { fraudConfig, type FraudConfig } from '../config/fraud.config.js';
import { Database } from '../database/database.js';
import type { ActiveBlock, FraudState } from './fraud-state.js';
import { FraudStateRepository, scopeKey, type FraudScope } from './fraud-state.repository.js';

/** A cached state not confirmed for this long is read again before it is used. */
export const MAX_STALE_MS = 30_000;
/** Changes are looked for from this long before the previous look: commits that came late, and clocks a little apart. */
const CHANGE_OVERLAP_MS = 60_000;
/** Accounts and modes kept; past this, the one read longest ago is forgotten (and read again when it sends). */
const CAPACITY = 50_000;

interface Cached {
  state: FraudState;
  /** When it was last known current (ms, this process's clock). */
  confirmedAt: number;
}

/**
 * The accounts' guard settings (policy, lists, active blocks), per instance,
 * so that a send reads them from memory (SPEC-3 §3). Every change bumps the
 * account's version in `fraud_policy` with the time of the change; every
 * `FRAUD_CACHE_REFRESH_MS` each instance reads which versions changed (one
 * indexed read, whatever the number of accounts) and reads the settings of
 * those it holds again, off the send path. A change made here is read again at
 * once, and a block a send made here joins the held settings (blockMade).
 * A state that could not be confirmed for 30 s (the database
 * unreachable, say) is read again by the send that needs it: a change made on
 * another instance is enforced here within the refresh interval, and never
 * more than 30 s late.
 */
@Injectable()
export class FraudStateCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FraudStateCache.name);
  private readonly entries = new Map<string, Cached>();
  private readonly loading = new Map<string, Promise<FraudState>>();
  /** The application time of the last look for changes that succeeded. */
  private lookedAt: Date;
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly states: FraudStateRepository,
    private readonly clock: Clock,
    @Inject(fraudConfig.KEY) private readonly config: FraudConfig,
  ) {
    this.lookedAt = clock.now();
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.refresh(), this.config.cacheRefreshMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.looking;
  }

  /** The settings of `scope`: from memory while confirmed within 30 s, else read now. */
  get(scope: FraudScope): FraudState | Promise<FraudState> {
    const cached = this.entries.get(scopeKey(scope));
    if (cached && Date.now() - cached.confirmedAt <= MAX_STALE_MS) return cached.state;
    return this.load(scope);
  }

  /** After a change of `scope` committed on this instance: read it again now, if it is held, after any read begun before the change. */
  async changed(scope: FraudScope): Promise<void> {
    const key = scopeKey(scope);
    await this.loading.get(key);
    if (this.entries.has(key)) await this.load(scope);
  }

  /**
   * A block committed on this instance: its sends see it at once, without
   * reading the account's settings again (a pumping run makes blocks many
   * times a second, and the settings hold every one of them); the state read
   * next, at the refresh that sees the version the block bumped, has it too.
   */
  blockMade(scope: FraudScope, block: ActiveBlock): void {
    const key = scopeKey(scope);
    this.entries.get(key)?.state.addBlock(block);
    // a read begun before the block's commit may not have it
    void this.loading.get(key)?.then((state) => state.addBlock(block), () => undefined);
  }

  /** Looks for changes once (the interval's work; tests call it to skip the wait). */
  refresh(): Promise<void> {
    this.looking ??= this.lookForChanges()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'fraud settings not refreshed'))
      .finally(() => (this.looking = null));
    return this.looking;
  }

  private async lookForChanges(): Promise<void> {
    const startedAt = Date.now();
    const lookingAt = this.clock.now();
    if (this.entries.size > 0) {
      const since = new Date(this.lookedAt.getTime() - CHANGE_OVERLAP_MS);
      const changed = await this.database.run((sql) => this.states.changedSince(sql, since));
      const stale = changed.filter((scope) => {
        const cached = this.entries.get(scopeKey(scope));
        return cached !== undefined && cached.state.version !== scope.version;
      });
      await Promise.all(stale.map((scope) => this.load(scope)));
      for (const cached of this.entries.values()) cached.confirmedAt = Math.max(cached.confirmedAt, startedAt);
    }
    this.lookedAt = lookingAt;
  }

  private load(scope: FraudScope): Promise<FraudState> {
    const key = scopeKey(scope);
    let loading = this.loading.get(key);
    if (!loading) {
      const startedAt = Date.now();
      loading = this.database
        .run((sql) => this.states.load(sql, scope, this.clock.now()), { urgent: true })
        .then((state) => {
          this.entries.delete(key);
          if (this.entries.size >= CAPACITY) this.entries.delete(this.entries.keys().next().value!);
          this.entries.set(key, { state, confirmedAt: startedAt });
          return state;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }
}
