/**
 * Exponential backoff from `baseMs`, doubling per attempt after the first,
 * capped at `maxMs`, with ±20 % jitter so that retries of many jobs spread out.
 */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}
