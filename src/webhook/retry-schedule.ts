/**
 * Delays before attempts 2 to 8 (Svix and Novu's schedule, about 27.6 hours in
 * all): the first attempt is immediate, then +5 s, +5 min, +30 min, +2 h, +5 h,
 * +10 h and +10 h after each failure.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

const JITTER = 0.1;

/**
 * When to try again after failed attempt `attempt` (1-based), ±10 % jitter,
 * and never before a `Retry-After` the receiver asked for. Past the schedule
 * its last delay repeats (for a WEBHOOK_MAX_ATTEMPTS above 8).
 */
export function nextAttemptDelayMs(attempt: number, retryAfterMs: number | null, random = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
  const jittered = Math.round(base * (1 - JITTER + random() * 2 * JITTER));
  return Math.max(jittered, retryAfterMs ?? 0);
}
