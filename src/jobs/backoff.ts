/** Each delay is its nominal value times a factor drawn in [1 - JITTER, 1 + JITTER]. */
const JITTER = 0.2;

/**
 * Exponential backoff from `baseMs`, doubling per attempt after the first,
 * capped at `maxMs`, with ±20 % jitter so that retries of many jobs spread out.
 */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
  return Math.round(delay * (1 - JITTER + Math.random() * 2 * JITTER));
}

/** The longest delay `backoffMs` gives with this cap. */
export function longestBackoffMs(maxMs: number): number {
  return Math.ceil(maxMs * (1 + JITTER));
}
