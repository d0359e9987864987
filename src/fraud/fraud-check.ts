import type { Sql } from '../database/sql.js';
import { newId } from '../common/ids.js';
import type { AttemptMode, AttemptRecord, FraudAttemptRepository } from './fraud-attempt.repository.js';
import type { FraudBlocks } from './fraud-blocks.service.js';
import type { FraudState } from './fraud-state.js';
import type { FraudScope } from './fraud-state.repository.js';
import { distinctReasons, type Finding, type SendSubject } from './fraud-signals.rules.js';
import type { RideAlong, VelocityCounts, VelocityRow } from './velocity-counts.js';
import type { VelocityKeyRepository } from './velocity-key.repository.js';

/** What a check writes with: given by the FraudGuard that makes it. */
export interface CheckTools {
  blocks: FraudBlocks;
  attempts: FraudAttemptRepository;
  velocityKeys: VelocityKeyRepository;
  /** After the send's commit: the attempt it recorded, and whether it made a block. */
  committed(check: FraudCheck, attempt: AttemptRecord | null, madeBlock: boolean): void;
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
  private madeBlock = false;
  private attempt: AttemptRecord | null = null;

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

  /** Locks the rows of the send's velocity keys, to travel with the send-limit read. */
  async lockVelocityKeys(sql: Sql, now: Date): Promise<void> {
    if (this.lockKeys && this.velocity) await this.tools.velocityKeys.lock(sql, this.scope, this.velocity.keys, now);
  }

  /** The velocity counts' columns for the send-limit read; undefined when velocity is off or nothing is counted. */
  rideAlong(): RideAlong | undefined {
    return this.velocity?.rideAlong();
  }

  /**
   * What the counts say: a refusal when velocity is enforced (with the prefix
   * to block, if it crossed its threshold); otherwise signals to record, and a
   * prefix over its threshold gets a monitor block, so that monitor mode shows
   * what enforce mode would have blocked and for how long.
   */
  async judge(sql: Sql, row: VelocityRow, now: Date): Promise<void> {
    this.counted = [];
    this.madeBlock = false;
    if (!this.velocity || !this.state) return;
    const mode = this.state.policy.modes.velocity === 'enforce' ? 'enforce' : 'monitor';
    const findings = this.velocity.judge(row, mode);
    if (findings.length === 0) return;
    const crossed = findings.some((found) => found.reason === 'prefix_velocity') ? this.subject.prefix : null;
    if (mode === 'enforce') throw new FraudRefusal(this, distinctReasons(findings), crossed);
    if (crossed !== null) {
      const { block, created } = await this.tools.blocks.impose(sql, this.scope, { scope: 'prefix', value: crossed, reason: 'prefix_velocity', mode }, now);
      this.madeBlock = created;
      for (const found of findings) if (found.reason === 'prefix_velocity') found.until = block.until;
    }
    this.counted = findings;
  }

  /** Records the signals in monitor mode with the OTP the send stored, in its unit of work. */
  async record(sql: Sql, otpId: string, now: Date): Promise<void> {
    const monitored = [...this.monitored, ...this.counted];
    this.attempt = monitored.length === 0 ? null : this.attemptOf('monitored', distinctReasons(monitored), otpId, now);
    if (this.attempt) await this.tools.attempts.insert(sql, this.attempt);
  }

  /** Once the send has committed. */
  committed(): void {
    if (this.attempt || this.madeBlock) this.tools.committed(this, this.attempt, this.madeBlock);
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
}
