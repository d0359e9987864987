import { readTime, type Param, type Sql } from '../database/sql.js';
import { CountryWindow, type StoredWindow } from './country-window.js';
import type { FraudThresholds } from './fraud-policy.js';
import { scopeKey, type FraudScope } from './fraud-state.repository.js';
import { blockError, finding, type Finding, type SendSubject } from './fraud-signals.rules.js';
import type { CountryAllowance } from './country-allowance.js';
import type { VelocityMemo } from './velocity-memo.js';

const HOUR_MS = 3600_000;
const TEN_MINUTES_MS = 600_000;

/** The velocity keys of a send, in the order their rows are locked (see FraudCheck). */
export const VELOCITY_KINDS = ['ip', 'user', 'prefix', 'country'] as const;
export type VelocityKind = (typeof VELOCITY_KINDS)[number];

/** One key of the send: its threshold and window, and how it is counted. */
interface Key {
  kind: VelocityKind;
  value: string;
  limit: number;
  since: Date;
  /** What this instance knows of the key is kept under (VelocityMemo, CountryAllowance): one string, hashed once. */
  known: string;
  /**
   * Read from the OTP table: counted (`walk`), or only whether it holds the threshold's worth (`nth`: an address or
   * a user ref, enforced); from the key's row by minute (`window`: a country, enforced, unless this instance holds a
   * send of it reserved: `reserved`); or known already (`over`, `under`, monitor mode).
   */
  read: 'walk' | 'nth' | 'window' | 'reserved' | 'over' | 'under';
}

/** Columns added to the send-limit read (OtpRepository.recentSends), and the parameters of their subqueries. */
export interface RideAlong {
  columns: string;
  params: Param[];
  /** The prefix among whose OTPs the read finds the recipient's, counting the prefix's other sends as it goes. */
  prefix?: string;
}

export interface VelocityRow {
  fraud_ip_count?: number | string;
  fraud_ip_oldest?: string | Date | null;
  fraud_ip_nth?: string | Date | null;
  fraud_user_count?: number | string;
  fraud_user_oldest?: string | Date | null;
  fraud_user_nth?: string | Date | null;
  fraud_prefix_count?: number | string;
  fraud_prefix_sends?: number | string;
  fraud_country_count?: number | string;
  fraud_country_oldest?: string | Date | null;
  fraud_country_minute?: number | string | null;
  fraud_country_counts?: string | null;
}

/** How each key is read when enforced: a prefix counts its distinct numbers, a country keeps its counts by minute. */
const ENFORCED_READ: Record<VelocityKind, Key['read']> = { ip: 'nth', user: 'nth', prefix: 'walk', country: 'window' };

/** The index of a prefix's OTPs, through which the send-limit read goes when it counts the prefix (RideAlong.prefix). */
export const PREFIX_INDEX = 'IDX_otp_fraud_prefix';

/** The column of each key's OTPs in the `otp` table, and the index ending in `created_at` that serves it (migration OtpFraudGuard). */
const READ_BY: Record<VelocityKind, { column: string; index: string }> = {
  ip: { column: 'client_ip', index: 'IDX_otp_fraud_ip' },
  user: { column: 'user_ref', index: 'IDX_otp_fraud_user' },
  prefix: { column: 'prefix', index: PREFIX_INDEX },
  country: { column: 'country', index: 'IDX_otp_fraud_country' },
};

/**
 * The subqueries of one key. A walk reads the key's OTPs of the window from
 * its index, up to one past the threshold, so that a key under attack costs
 * no more than one at its limit (the cap is written in the text: SQLite reads
 * a bound LIMIT row by row); a prefix counts its distinct numbers other than
 * the recipient; the oldest OTP of the window says when it frees. An `nth`
 * reads, newest first, the OTP that makes the threshold, which says both that
 * the key is at it and when it frees, in one subquery. A window reads the
 * key's counts by minute from its row. Each names its index: MariaDB's
 * optimizer would otherwise weigh every index of `otp` led by the account, a
 * cost of the order of the read itself.
 */
function subqueries(key: Key, sql: Sql): string {
  if (key.read === 'window') {
    const row = "FROM fraud_velocity_key WHERE account_id = ? AND sandbox = ? AND kind = 'country' AND value = ?";
    return `(SELECT minute ${row}) AS fraud_country_minute, (SELECT counts ${row}) AS fraud_country_counts`;
  }
  const { column, index } = READ_BY[key.kind];
  const otp = sql.indexed('otp', 'v', index);
  const where = `account_id = ? AND is_test = ? AND ${column} = ? AND created_at > ?`;
  if (key.read === 'nth') {
    return `(SELECT created_at FROM ${otp} WHERE ${where} ORDER BY created_at DESC LIMIT 1 OFFSET ${Math.trunc(key.limit) - 1}) AS fraud_${key.kind}_nth`;
  }
  const cap = Math.trunc(key.limit) + 1;
  if (key.kind === 'prefix') {
    return `(SELECT COUNT(*) FROM (SELECT DISTINCT recipient FROM ${otp} WHERE ${where} AND recipient <> ? LIMIT ${cap}) c) AS fraud_prefix_count`;
  }
  return `(SELECT COUNT(*) FROM (SELECT 1 FROM ${otp} WHERE ${where} LIMIT ${cap}) c) AS fraud_${key.kind}_count, (SELECT MIN(created_at) FROM ${otp} WHERE ${where}) AS fraud_${key.kind}_oldest`;
}

/**
 * A prefix's sends to its other numbers, summed by the send-limit read as it
 * goes through the prefix's OTPs (RideAlong.prefix): no subquery of its own.
 */
const PREFIX_SENDS = 'SUM(CASE WHEN recipient <> ? AND is_test = ? AND created_at > ? THEN 1 ELSE 0 END) AS fraud_prefix_sends';

const texts = new Map<string, string>();

function columnsOf(sql: Sql, keys: readonly Key[], throughPrefix: boolean): string {
  const shape = `${sql.dialect}:${throughPrefix ? 'through:' : ''}${keys.map((key) => `${key.kind}:${key.read}:${key.limit}`).join(',')}`;
  let columns = texts.get(shape);
  if (columns === undefined) {
    columns = [...(throughPrefix ? [PREFIX_SENDS] : []), ...keys.map((key) => subqueries(key, sql))].join(', ');
    texts.set(shape, columns);
  }
  return columns;
}

/**
 * The velocity signals of a send: the keys it has (its address, its user
 * ref, its prefix, its country), counted in the statement of the send-limit
 * read. Enforced, every key is counted exactly on every send, a country from
 * its counts by minute (one row, whatever the traffic), kept by the sends
 * themselves, which reserve sends ahead for this instance (CountryAllowance);
 * in monitor mode, what an instance knows of a key spares its count
 * (VelocityMemo).
 */
export class VelocityCounts {
  private window: CountryWindow | null = null;
  /** Sends of the country the current attempt reserves in its row, itself included (0: none). */
  private reserving = 0;
  /** The prefix, when the send-limit read goes through its OTPs and sums its other sends (rideAlong). */
  private throughPrefix: Key | null = null;

  private constructor(
    private readonly scope: FraudScope,
    private readonly subject: SendSubject,
    private readonly thresholds: FraudThresholds,
    private readonly mode: 'enforce' | 'monitor',
    private readonly keys: Key[],
    private readonly memo: VelocityMemo,
    private readonly allowance: CountryAllowance,
    private readonly at: Date,
  ) {}

  /** `prefixLiftedAt`: when a block of the prefix was last lifted by hand; the sends before it are not counted again. */
  static of(
    scope: FraudScope,
    subject: SendSubject,
    thresholds: FraudThresholds,
    mode: 'enforce' | 'monitor',
    now: Date,
    prefixLiftedAt: Date | null,
    memo: VelocityMemo,
    allowance: CountryAllowance,
  ): VelocityCounts | null {
    const hourAgo = new Date(now.getTime() - HOUR_MS);
    const keys: Key[] = [];
    const add = (kind: VelocityKind, value: string | null, limit: number, since: Date) => {
      if (value === null) return;
      const known = `${scopeKey(scope)}:${kind}:${limit}:${value}`;
      const recalled = mode === 'monitor' ? memo.recall(known, now.getTime()) : undefined;
      keys.push({ kind, value, limit, since, known, read: recalled ?? (mode === 'monitor' ? 'walk' : ENFORCED_READ[kind]) });
    };
    add('ip', subject.clientIp, thresholds.ip_per_hour, hourAgo);
    add('user', subject.userRef, thresholds.user_per_hour, hourAgo);
    add('prefix', subject.prefix, thresholds.prefix_per_hour, prefixLiftedAt && prefixLiftedAt > hourAgo ? prefixLiftedAt : hourAgo);
    add('country', subject.country, thresholds.country_per_10_min, new Date(now.getTime() - TEN_MINUTES_MS));
    return keys.length === 0 ? null : new VelocityCounts(scope, subject, thresholds, mode, keys, memo, allowance, now);
  }

  /** Once the country's sends on their way to this instance are known, when it has none left (before the send's unit of work). */
  lent(): Promise<void> | null {
    const country = this.country();
    return country?.read === 'window' ? this.allowance.lent(country.known, this.at) : null;
  }

  /**
   * An attempt of the send's unit of work begins: what an earlier attempt reserved is void, and the country is taken
   * from this instance's reserved sends where it can be (a send taken stays with the send until it ends).
   */
  begin(): void {
    this.release();
    this.window = null;
    const country = this.country();
    if (country?.read === 'window' && this.allowance.take(country.known, this.at)) country.read = 'reserved';
  }

  /** The keys whose rows serialise their sends: those counted, but a country whose send was reserved. */
  get counted(): Array<{ kind: VelocityKind; value: string }> {
    return this.keys.filter((key) => key.read !== 'reserved').map(({ kind, value }) => ({ kind, value }));
  }

  /**
   * The columns of the keys to read, for a send-limit read of the recipient's
   * OTPs created after `from`; undefined when every key is known. A prefix to
   * count is read with the send-limit read itself when that read lies within
   * the prefix's hour: the read then goes through the prefix's OTPs, summing
   * the sends to its other numbers, an upper bound of their distinct count
   * that countPrefix makes exact only once it reaches the threshold.
   */
  rideAlong(sql: Sql, from: Date): RideAlong | undefined {
    const prefix = this.keys.find((key) => key.kind === 'prefix' && key.read === 'walk');
    this.throughPrefix = prefix && from.getTime() >= this.at.getTime() - HOUR_MS ? prefix : null;
    const read = this.keys.filter((key) => key !== this.throughPrefix && (key.read === 'walk' || key.read === 'nth' || key.read === 'window'));
    if (read.length === 0 && !this.throughPrefix) return undefined;
    const params: Param[] = this.throughPrefix ? [this.subject.recipient, this.scope.sandbox, this.throughPrefix.since] : [];
    params.push(...this.paramsOf(read));
    return { columns: columnsOf(sql, read, this.throughPrefix !== null), params, prefix: this.throughPrefix?.value };
  }

  /**
   * When the prefix's other sends, summed by the send-limit read, reach its threshold: its distinct numbers, counted,
   * written into `row` as `fraud_prefix_count`, which judge reads in place of the sum.
   */
  async countPrefix(sql: Sql, row: VelocityRow): Promise<void> {
    const prefix = this.throughPrefix;
    if (!prefix || Number(row.fraud_prefix_sends ?? 0) < prefix.limit) return;
    const counted = await sql.get<VelocityRow>(`SELECT ${columnsOf(sql, [prefix], false)}`, this.paramsOf([prefix]));
    row.fraud_prefix_count = counted?.fraud_prefix_count ?? 0;
  }

  private paramsOf(keys: readonly Key[]): Param[] {
    const params: Param[] = [];
    for (const { kind, value, since, read: how } of keys) {
      const key = [this.scope.accountId, this.scope.sandbox, value];
      const where = [...key, since];
      if (how === 'window') params.push(...key, ...key);
      else if (how === 'nth') params.push(...where);
      else if (kind === 'prefix') params.push(...where, this.subject.recipient);
      else params.push(...where, ...where);
    }
    return params;
  }

  /** The keys over their thresholds, as signals in the counts' mode; a prefix's is to be blocked (see FraudCheck). */
  judge(row: VelocityRow, now: Date): Finding[] {
    const findings: Finding[] = [];
    for (const key of this.keys) {
      const { count, frees } = this.read(key, row, now);
      if (this.mode === 'monitor' && key.read === 'walk') this.memo.remember(key.known, count, key.limit, now.getTime());
      if (count >= key.limit) findings.push(this.finding(key, frees));
    }
    return findings;
  }

  /** The country's counts by minute with this send and those it reserves, once it is accepted (enforced); null when there are none to keep. */
  windowWithSend(): { value: string; window: StoredWindow } | null {
    if (!this.window) return null;
    const country = this.country()!;
    this.reserving = this.allowance.reserve(country.known, this.at, country.limit - this.window.total);
    return { value: this.subject.country!, window: this.window.withSends(this.reserving) };
  }

  /** The send was accepted: it uses the room of the keys this instance knew, and what it reserved is this instance's. */
  sent(now: Date): void {
    const country = this.country();
    if (country && (country.read === 'reserved' || this.reserving > 0)) {
      const key = country.known;
      if (this.reserving > 0) this.allowance.reserved(key, this.at, this.reserving, true);
      this.allowance.spent(key, this.at);
      this.reserving = 0;
    }
    if (this.mode !== 'monitor') return;
    for (const key of this.keys) this.memo.sent(key.known, now.getTime());
  }

  /** The send ended without committing: a send it took, and those its last attempt reserved, are not used. */
  abandoned(): void {
    this.release();
    const country = this.country();
    if (country?.read === 'reserved') {
      this.allowance.giveBack(country.known, this.at);
      country.read = 'window';
    }
  }

  private release(): void {
    if (this.reserving === 0) return;
    this.allowance.reserved(this.country()!.known, this.at, this.reserving, false);
    this.reserving = 0;
  }

  private country(): Key | undefined {
    return this.keys.find((key) => key.kind === 'country');
  }

  /** How many sends the key had in its window, and when the window frees (null when it is not known). */
  private read(key: Key, row: VelocityRow, now: Date): { count: number; frees: Date | null } {
    if (key.read === 'over') return { count: key.limit, frees: null };
    if (key.read === 'under' || key.read === 'reserved') return { count: 0, frees: null };
    if (key.read === 'nth') {
      const nth = readTime(row[`fraud_${key.kind as 'ip' | 'user'}_nth`] ?? null);
      return nth ? { count: key.limit, frees: new Date(nth.getTime() + HOUR_MS) } : { count: 0, frees: null };
    }
    if (key.read === 'window') {
      this.window = CountryWindow.read({ minute: row.fraud_country_minute ?? null, counts: row.fraud_country_counts ?? null }, now);
      return { count: this.window.total, frees: this.window.frees };
    }
    const count = Number((key.kind === 'prefix' ? (row.fraud_prefix_count ?? row.fraud_prefix_sends) : row[`fraud_${key.kind}_count`]) ?? 0);
    const oldest = key.kind === 'prefix' ? null : readTime(row[`fraud_${key.kind}_oldest`] ?? null);
    const windowMs = key.kind === 'country' ? TEN_MINUTES_MS : HOUR_MS;
    return { count, frees: oldest ? new Date(oldest.getTime() + windowMs) : null };
  }

  private finding(key: Key, frees: Date | null): Finding {
    const t = this.thresholds;
    switch (key.kind) {
      case 'ip':
        return finding('ip_velocity', this.mode, `client_ip: trop d'envois depuis cette adresse (${t.ip_per_hour} par heure)`, frees);
      case 'user':
        return finding('user_velocity', this.mode, `user_ref: trop d'envois pour cet utilisateur (${t.user_per_hour} par heure)`, frees);
      case 'prefix':
        return finding('prefix_velocity', this.mode, blockError('prefix', key.value, 'prefix_velocity'), null);
      case 'country':
        return finding('country_burst', this.mode, `to: trop d'envois vers le pays ${key.value} (${t.country_per_10_min} en 10 minutes)`, frees);
    }
  }
}
