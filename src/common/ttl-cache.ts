/** A small time-bounded cache of look-ups (at most `ttlMs` old, at most `capacity` entries). */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity: number,
  ) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Kept for `ttlMs`, or less when the value itself lapses sooner. */
  set(key: string, value: V, now: number, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: now + Math.min(ttlMs, this.ttlMs) });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
