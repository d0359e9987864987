import type { Sql } from '../database/sql.js';
import { newId } from '../common/ids.js';
import type { AttemptMode, AttemptRecord, FraudAttemptRepository } from './fraud-attempt.repository.js';
import type { FraudBlocks } from './fraud-blocks.service.js';
import type { ActiveBlock, FraudState } from './fraud-state.js';
import { scopeKey, type FraudScope } from './fraud-state.repository.js';
import { distinctReasons, type Finding, type SendSubject } from './fraud-signals.rules.js';
import type { MonitoredRecords } from './monitored-records.js';
import type { RideAlong, VelocityCounts, VelocityRow } from './velocity-counts.js';
import type { VelocityKeyRepository } from './velocity-key.repository.js';

/** What a check writes with: given by the FraudGuard that makes it. */
export interface CheckTools {
  blocks: FraudBlocks;
  attempts: FraudAttemptRepository;
  velocityKeys: VelocityKeyRepository;
  monitoredRecords: MonitoredRecords;
  /** After the send's commit: the signals it was let through with, and the block it made, if any. */
  committed(scope: FraudScope, monitored: readonly Finding[], madeBlock: ActiveBlock | null): void;
}

/** A send the guard refuses: thrown inside its unit of work (which then rolls back), recorded and answered by FraudGuard.refuse. */
export class FraudRefusal extends Error {
  override readonly name = 'FraudRefusal';

  constructor(
    readonly check: FraudCheck,
    /** The signals in enforce mode that refuse it, in the guard's order. */
    readonly findings: Finding[],
    /** A prefix over its concentration threshold, to be blocked with the refusal. */
    readonly prefixToBlock: string | null,
  ) {
    super(`OTP send refused by the fraud guard (${findings.map((found) => found.reason).join(', ')})`);
  }
}

/** The key a monitored signal is recorded under (MonitoredRecords): what its threshold counts, else the recipient. */
const RECORDED_BY: Record<string, (subject: SendSubject) => string | null> = {
  ip_velocity: (subject) => subject.clientIp,
  user_velocity: (subject) => subject.userRef,
  prefix_velocity: (subject) => subject.prefix,
  country_burst: (subject) => subject.country,
  low_conversion: (subject) => subject.country,
};

/**
 * The guard's verdict on one send, in the steps of its unit of work (see
 * SendOtp): the signals of the cached settings first (after the request's own
 * 400s), then the velocity counts, read with the send-limit read, before the
 * per-recipient 429. A refusal is thrown as a FraudRefusal; the signals in
 * monitor mode are recorded as a `monitored` attempt with the OTP they let
 * through. A send on the safe list, or with nothing to check, does nothing.
 */
export class FraudCheck {
  private readonly refusal: FraudRefusal | null;
  /** The cached settings' signals in monitor mode. */
  private readonly monitored: Finding[];
  /** What the current attempt of the send's unit of work found and did (a unit the database runs again starts afresh). */
  private counted: Finding[] = [];
  private madeBlock: ActiveBlock | null = null;

  constructor(
    private readonly tools: CheckTools,
    readonly scope: FraudScope,
    readonly subject: SendSubject,
    private readonly state: FraudState | null,
    findings: Finding[],
    private readonly velocity: VelocityCounts | null,
    /** Lock the velocity keys' rows (MariaDB, velocity enforced). */
    private readonly lockKeys: boolean,
  ) {
    const enforced = findings.filter((found) => found.enforced);
    this.monitored = findings.filter((found) => !found.enforced);
    this.refusal = enforced.length > 0 ? new FraudRefusal(this, distinctReasons(enforced), null) : null;
  }

  /** Throws the refusal of the cached settings' signals, if any. */
  refuseIfBlocked(): void {
    if (this.refusal) throw this.refusal;
  }

  /** Begins the velocity counts of this attempt of the unit; locks the rows of the keys counted, to travel with the send-limit read. */
  async beginVelocityCounts(sql: Sql, now: Date): Promise<void> {
    if (!this.velocity) return;
    this.velocity.begin();
    const counted = this.velocity.counted;
    if (this.lockKeys && counted.length > 0) await this.tools.velocityKeys.lock(sql, this.scope, counted, now);
  }

  /** The velocity counts' columns for the send-limit read of the recipient's OTPs created after `from`; undefined when velocity is off or nothing is to be read. */
  rideAlong(sql: Sql, from: Date): RideAlong | undefined {
    return this.velocity?.rideAlong(sql, from);
  }

  /**
   * What the counts say: a refusal when velocity is enforced (with the prefix
   * to block, if it crossed its threshold); otherwise signals to record, and a
   * prefix over its threshold gets a monitor block, so that monitor mode shows
   * what enforce mode would have blocked and for how long.
   */
  async judge(sql: Sql, row: VelocityRow, now: Date): Promise<void> {
    this.counted = [];
    this.madeBlock = null;
    if (!this.velocity || !this.state) return;
    await this.velocity.countPrefix(sql, row);
    const findings = this.velocity.judge(row, now);
    if (findings.length === 0) return;
    const crossed = findings.some((found) => found.reason === 'prefix_velocity') ? this.subject.prefix : null;
    if (this.state.policy.modes.velocity === 'enforce') throw new FraudRefusal(this, distinctReasons(findings), crossed);
    const blocked = crossed !== null && this.state.activeBlocks('prefix', crossed, now.getTime()).some((block) => block.reason === 'prefix_velocity');
    if (crossed !== null && !blocked) {
      const { block, created } = await this.tools.blocks.impose(sql, this.scope, { scope: 'prefix', value: crossed, reason: 'prefix_velocity', mode: 'monitor' }, now);
      this.madeBlock = created ? block : null;
      for (const found of findings) if (found.reason === 'prefix_velocity') found.until = block.until;
    }
    this.counted = findings;
  }

  /** In the send's unit of work, once its OTP `otpId` is stored: what the guard keeps of it. */
  async record(sql: Sql, otpId: string, now: Date): Promise<void> {
    const window = this.velocity?.windowWithSend();
    if (window) await this.tools.velocityKeys.storeWindow(sql, this.scope, window.value, window.window, now);
    const monitored = this.monitoredFindings();
    if (monitored.length > 0 && this.tools.monitoredRecords.admit(this.recordKey(monitored), now.getTime())) {
      await this.tools.attempts.insert(sql, this.attemptOf('monitored', monitored, otpId, now));
    }
  }

  /** Once the send has committed. */
  committed(now: Date): void {
    this.velocity?.sent(now);
    const monitored = this.monitoredFindings();
    if (monitored.length > 0 || this.madeBlock) this.tools.committed(this.scope, monitored, this.madeBlock);
  }

  /** The send ended without committing (refused, or failed). */
  abandoned(): void {
    this.velocity?.abandoned();
  }

  attemptOf(mode: AttemptMode, findings: readonly Finding[], otpId: string | null, now: Date): AttemptRecord {
    const until = findings.map((found) => found.until);
    return {
      ...this.scope,
      id: newId(now),
      mode,
      reasons: findings.map((found) => found.reason),
      channel: this.subject.channel,
      recipient: this.subject.recipient,
      country: this.subject.country,
      prefix: this.subject.prefix,
      clientIp: this.subject.clientIp,
      userRef: this.subject.userRef,
      otpId,
      blockedUntil: mode === 'blocked' && until.every((at) => at !== null) ? new Date(Math.max(...until.map((at) => at!.getTime()))) : null,
      createdAt: now,
    };
  }

  private monitoredFindings(): Finding[] {
    return this.monitored.length + this.counted.length === 0 ? [] : distinctReasons([...this.monitored, ...this.counted]);
  }

  private recordKey(findings: readonly Finding[]): string {
    const keys = findings.map((found) => `${found.reason}=${(RECORDED_BY[found.reason] ?? ((subject) => subject.recipient))(this.subject)}`);
    return `${scopeKey(this.scope)}:${keys.join('|')}`;
  }
}
