import { TtlCache } from '../common/ttl-cache.js';

/** How long an instance trusts what a key's last count said, in monitor mode. */
const TRUSTED_MS = 5_000;
const CAPACITY = 100_000;

interface Known {
  over: boolean;
  /** Sends that may still go before the threshold: what the count left, less this instance's sends since. */
  room: number;
}

/**
 * In monitor mode a velocity count decides nothing, it only says what to
 * record, so it need not be exact: each instance remembers for five seconds
 * what a key's last count said (over its threshold, or under it with room for
 * so many sends) and counts again once that lapses or its own sends have used
 * the room. An account well over a threshold, or far under it, then costs no
 * count on most sends. Enforce mode counts every send.
 */
export class VelocityMemo {
  private readonly known = new TtlCache<Known>(TRUSTED_MS, CAPACITY);

  /** What is known of the key without counting it; undefined when it must be counted. */
  recall(key: string, now: number): 'over' | 'under' | undefined {
    const known = this.known.get(key, now);
    if (!known) return undefined;
    if (known.over) return 'over';
    return known.room > 0 ? 'under' : undefined;
  }

  /** What a count of the key found (the sends before this one). */
  remember(key: string, count: number, limit: number, now: number): void {
    this.known.set(key, { over: count >= limit, room: limit - count }, now);
  }

  /** A send of the key was accepted. */
  sent(key: string, now: number): void {
    const known = this.known.get(key, now);
    if (known) known.room--;
  }
}
