import type { Param } from '../database/sql.js';
import { readTime } from '../database/sql.js';
import type { FraudThresholds } from './fraud-policy.js';
import type { FraudScope } from './fraud-state.repository.js';
import { blockError, finding, type Finding, type SendSubject } from './fraud-signals.rules.js';

const HOUR_MS = 3600_000;
const TEN_MINUTES_MS = 600_000;

/** The velocity keys of a send, in the order their rows are locked (see FraudCheck). */
export const VELOCITY_KINDS = ['ip', 'user', 'prefix', 'country'] as const;
export type VelocityKind = (typeof VELOCITY_KINDS)[number];

/** What is counted for one key: the OTPs of the last hour (ten minutes for a country) sharing it, up to one past the threshold. */
interface Count {
  kind: VelocityKind;
  value: string;
  limit: number;
  since: Date;
}

/** Columns added to the send-limit read (OtpRepository.recentSends), and the parameters of their subqueries. */
export interface RideAlong {
  columns: string;
  params: Param[];
}

export interface VelocityRow {
  fraud_ip_count?: number | string;
  fraud_ip_oldest?: string | Date | null;
  fraud_user_count?: number | string;
  fraud_user_oldest?: string | Date | null;
  fraud_prefix_count?: number | string;
  fraud_country_count?: number | string;
  fraud_country_oldest?: string | Date | null;
}

/** The column of each key's OTPs in the `otp` table, each served by an index ending in `created_at` (migration OtpFraudGuard). */
const COLUMN: Record<VelocityKind, string> = { ip: 'client_ip', user: 'user_ref', prefix: 'prefix', country: 'country' };

/**
 * Counts capped at the threshold and one more, so that a key under attack
 * costs no more to count than one at its limit; a prefix counts its distinct
 * numbers other than the recipient. The oldest OTP of the window says when it
 * frees.
 */
function subqueries(kind: VelocityKind): string {
  const where = `account_id = ? AND is_test = ? AND ${COLUMN[kind]} = ? AND created_at > ?`;
  if (kind === 'prefix') {
    return `(SELECT COUNT(*) FROM (SELECT DISTINCT recipient FROM otp WHERE ${where} AND recipient <> ? LIMIT ?) c) AS fraud_prefix_count`;
  }
  return `(SELECT COUNT(*) FROM (SELECT 1 FROM otp WHERE ${where} LIMIT ?) c) AS fraud_${kind}_count, (SELECT MIN(created_at) FROM otp WHERE ${where}) AS fraud_${kind}_oldest`;
}

const texts = new Map<string, string>();

/** The velocity counts of a send, as the ride-along of the send-limit read; null when there is nothing to count. */
export class VelocityCounts {
  private constructor(
    private readonly scope: FraudScope,
    private readonly subject: SendSubject,
    private readonly thresholds: FraudThresholds,
    private readonly counts: Count[],
  ) {}

  /** `prefixLiftedAt`: when a block of the prefix was last lifted by hand; the sends before it are not counted again. */
  static of(scope: FraudScope, subject: SendSubject, thresholds: FraudThresholds, now: Date, prefixLiftedAt: Date | null): VelocityCounts | null {
    const hourAgo = new Date(now.getTime() - HOUR_MS);
    const counts: Count[] = [];
    const add = (kind: VelocityKind, value: string | null, limit: number, since: Date) => value !== null && counts.push({ kind, value, limit, since });
    add('ip', subject.clientIp, thresholds.ip_per_hour, hourAgo);
    add('user', subject.userRef, thresholds.user_per_hour, hourAgo);
    add('prefix', subject.prefix, thresholds.prefix_per_hour, prefixLiftedAt && prefixLiftedAt > hourAgo ? prefixLiftedAt : hourAgo);
    add('country', subject.country, thresholds.country_per_10_min, new Date(now.getTime() - TEN_MINUTES_MS));
    return counts.length === 0 ? null : new VelocityCounts(scope, subject, thresholds, counts);
  }

  /** The keys counted, for the rows that serialise their sends. */
  get keys(): Array<{ kind: VelocityKind; value: string }> {
    return this.counts.map(({ kind, value }) => ({ kind, value }));
  }

  rideAlong(): RideAlong {
    const shape = this.counts.map((count) => count.kind).join(',');
    let columns = texts.get(shape);
    if (columns === undefined) {
      columns = this.counts.map((count) => subqueries(count.kind)).join(', ');
      texts.set(shape, columns);
    }
    const params: Param[] = [];
    for (const { kind, value, limit, since } of this.counts) {
      const where = [this.scope.accountId, this.scope.sandbox, value, since];
      if (kind === 'prefix') params.push(...where, this.subject.recipient, limit + 1);
      else params.push(...where, limit + 1, ...where);
    }
    return { columns, params };
  }

  /** What the counts say, in velocity's `mode`; a prefix over its threshold is to be blocked (see FraudCheck). */
  judge(row: VelocityRow, mode: 'enforce' | 'monitor'): Finding[] {
    const findings: Finding[] = [];
    const t = this.thresholds;
    for (const { kind, value, limit } of this.counts) {
      const count = Number(row[`fraud_${kind}_count`] ?? 0);
      if (count < limit) continue;
      const oldest = kind === 'prefix' ? null : readTime(row[`fraud_${kind}_oldest`] ?? null);
      const frees = (windowMs: number) => (oldest ? new Date(oldest.getTime() + windowMs) : null);
      if (kind === 'ip') findings.push(finding('ip_velocity', mode, `client_ip: trop d'envois depuis cette adresse (${t.ip_per_hour} par heure)`, frees(HOUR_MS)));
      if (kind === 'user') findings.push(finding('user_velocity', mode, `user_ref: trop d'envois pour cet utilisateur (${t.user_per_hour} par heure)`, frees(HOUR_MS)));
      if (kind === 'prefix') findings.push(finding('prefix_velocity', mode, blockError('prefix', value, 'prefix_velocity'), null));
      if (kind === 'country') {
        findings.push(finding('country_burst', mode, `to: trop d'envois vers le pays ${value} (${t.country_per_10_min} en 10 minutes)`, frees(TEN_MINUTES_MS)));
      }
    }
    return findings;
  }
}
