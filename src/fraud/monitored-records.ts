import { TtlCache } from '../common/ttl-cache.js';

/** Monitored attempts of one account, reason and key written a minute by each instance. */
const PER_MINUTE = 10;
const MINUTE_MS = 60_000;
const CAPACITY = 100_000;

/**
 * Monitor mode records what enforce mode would refuse, and an account well
 * over a threshold would record every send: past ten a minute for the same
 * account, reasons and key, an instance only counts them (the
 * `otp_fraud_attempts_total` series counts every one), so that a monitored
 * signal never costs a row per send.
 */
export class MonitoredRecords {
  private readonly written = new TtlCache<{ count: number }>(MINUTE_MS, CAPACITY);

  /** Whether a monitored attempt under `key` is written now. */
  admit(key: string, now: number): boolean {
    const written = this.written.get(key, now);
    if (!written) {
      this.written.set(key, { count: 1 }, now);
      return true;
    }
    if (written.count >= PER_MINUTE) return false;
    written.count++;
    return true;
  }
}
