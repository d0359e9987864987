import { SystemClock } from '../common/clock.js';
import type { FraudConfig } from '../config/fraud.config.js';
import type { Database } from '../database/database.js';
import { DEFAULT_POLICY } from './fraud-policy.js';
import { FraudStateCache } from './fraud-state.cache.js';
import type { FraudStateRepository } from './fraud-state.repository.js';
import { FraudState, type ActiveBlock } from './fraud-state.js';

const SCOPE = { accountId: 'a', sandbox: false };
const NOW = Date.now();
const prefixBlock = (id: string, value: string): ActiveBlock => ({ id, scope: 'prefix', value, reason: 'prefix_velocity', mode: 'monitor', until: new Date(NOW + 3600_000) });

/** A cache over settings read from `reads`, each read answered when the test says so. */
function cacheOver() {
  const pending: Array<(state: FraudState) => void> = [];
  let reads = 0;
  const database = { run: (work: (sql: unknown) => Promise<FraudState>) => work({}) } as unknown as Database;
  const states = {
    load: () => {
      reads++;
      return new Promise<FraudState>((resolve) => pending.push(resolve));
    },
  } as unknown as FraudStateRepository;
  const cache = new FraudStateCache(database, states, new SystemClock(), { cacheRefreshMs: 5_000 } as FraudConfig);
  const answer = async (blocks: ActiveBlock[] = []) => {
    pending.shift()!(new FraudState(1, DEFAULT_POLICY, [], blocks));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { cache, answer, reads: () => reads };
}

describe(FraudStateCache.name, () => {
  it('holds a block made here at once, without reading the settings again', async () => {
    const { cache, answer, reads } = cacheOver();
    const first = cache.get(SCOPE);
    await answer();
    await first;

    cache.blockMade(SCOPE, prefixBlock('b1', '+2250707'));

    const state = (await cache.get(SCOPE)) as FraudState;
    expect(state.activeBlocks('prefix', '+2250707', NOW).map((block) => block.id)).toEqual(['b1']);
    expect(reads()).toBe(1);
  });

  it('adds a block made while the settings are being read to what that read returns, once', async () => {
    const { cache, answer } = cacheOver();
    const loading = cache.get(SCOPE);

    cache.blockMade(SCOPE, prefixBlock('b1', '+2250707'));
    await answer([prefixBlock('b1', '+2250707')]);

    expect(((await loading) as FraudState).activeBlocks('prefix', '+2250707', NOW).map((block) => block.id)).toEqual(['b1']);
  });

  it('adds it to a read begun before the block was committed that does not have it', async () => {
    const { cache, answer } = cacheOver();
    const loading = cache.get(SCOPE);

    cache.blockMade(SCOPE, prefixBlock('b2', '+2250708'));
    await answer();

    expect(((await loading) as FraudState).activeBlocks('prefix', '+2250708', NOW).map((block) => block.id)).toEqual(['b2']);
  });
});
