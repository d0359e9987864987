/** A country's sends counted by minute, for the burst threshold in enforce mode (see VelocityCounts). */
const MINUTE_MS = 60_000;
/** The current minute and the ten before it: a little more than ten minutes, so that the count never falls short of them. */
const MINUTES = 11;

/** The counts of a country's window as its velocity key row keeps them: the newest minute, and the counts newest first. */
export interface StoredWindow {
  minute: number | string | null;
  counts: string | null;
}

/**
 * The sends of one key by minute, over the last eleven minutes. Counting the
 * whole of the oldest minute keeps the burst threshold conservative: never
 * more sends than the threshold are accepted in any ten minutes.
 */
export class CountryWindow {
  private constructor(
    private readonly minute: number,
    private readonly counts: number[],
  ) {}

  static read(stored: StoredWindow, now: Date): CountryWindow {
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    const counts = new Array<number>(MINUTES).fill(0);
    if (stored.minute !== null && stored.counts !== null) {
      // a row written by an instance whose clock runs a little ahead counts as this minute
      const shift = Math.max(0, minute - Number(stored.minute));
      stored.counts.split(',').forEach((count, age) => {
        if (age + shift < MINUTES) counts[age + shift] = Number(count);
      });
    }
    return new CountryWindow(minute, counts);
  }

  get total(): number {
    return this.counts.reduce((sum, count) => sum + count, 0);
  }

  /** When the oldest counted minute leaves the window. */
  get frees(): Date {
    const oldest = this.counts.reduce((found, count, age) => (count > 0 ? age : found), 0);
    return new Date((this.minute - oldest + MINUTES) * MINUTE_MS);
  }

  /** The window with `sends` more counted in this minute, as the key's row stores it. */
  withSends(sends: number): StoredWindow {
    const counts = [...this.counts];
    counts[0]! += sends;
    return { minute: this.minute, counts: counts.join(',') };
  }
}
