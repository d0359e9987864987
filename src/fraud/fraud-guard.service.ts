import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { Database } from '../database/database.js';
import type { SendBlockedDto } from './dto/fraud-attempt.dto.js';
import { FraudAttemptRepository, type AttemptRecord } from './fraud-attempt.repository.js';
import { MonitoredRecords } from './monitored-records.js';
import { FraudBlocks } from './fraud-blocks.service.js';
import { FraudCheck, type CheckTools, type FraudRefusal } from './fraud-check.js';
import { FraudEvents } from './fraud-events.js';
import { FraudStateCache } from './fraud-state.cache.js';
import type { FraudScope } from './fraud-state.repository.js';
import type { ActiveBlock } from './fraud-state.js';
import { isSafe, staticFindings, type Finding, type SendSubject } from './fraud-signals.rules.js';
import { FraudMetrics } from './fraud.metrics.js';
import { canonicalIp } from './ip-address.js';
import { CountryAllowance } from './country-allowance.js';
import { VelocityCounts } from './velocity-counts.js';
import { VelocityKeyRepository } from './velocity-key.repository.js';
import { VelocityMemo } from './velocity-memo.js';

/** Digits of a number left out of its prefix (SPEC-3 §3: the number without its last 4 digits). */
const PREFIX_CUT = 4;

/** The send an OTP request asks for, as the guard reads it. */
export interface GuardedSend {
  channel: 'SMS' | 'EMAIL';
  /** E.164, or an e-mail address. */
  recipient: string;
  /** Calling code of an SMS destination (`+998`). */
  dialCode: string;
  country: string | null;
  clientIp: string | null;
  userRef: string | null;
}

/**
 * The OTP fraud guard (SPEC-3 §3): checks a send against the account's
 * settings, read from this instance's cache, and the velocity counts that
 * ride with the send-limit read (FraudCheck), and records and answers the
 * sends it refuses: `403 envoi_bloque`, one sentence per reason, the attempt,
 * when a temporary block ends and `Retry-After`. Only the attempt is kept of a
 * refused send (and the block it may make); nothing is debited, sent or kept
 * for an idempotent replay.
 */
@Injectable()
export class FraudGuard {
  private readonly tools: CheckTools;
  private readonly memo = new VelocityMemo();
  private readonly allowance = new CountryAllowance();

  constructor(
    private readonly database: Database,
    private readonly cache: FraudStateCache,
    private readonly blocks: FraudBlocks,
    private readonly attempts: FraudAttemptRepository,
    private readonly events: FraudEvents,
    private readonly metrics: FraudMetrics,
    velocityKeys: VelocityKeyRepository,
  ) {
    this.tools = {
      blocks,
      attempts,
      velocityKeys,
      monitoredRecords: new MonitoredRecords(),
      committed: (scope, monitored, madeBlock) => {
        if (monitored.length > 0) this.metrics.counted('monitored', monitored);
        if (madeBlock) this.cache.blockMade(scope, madeBlock);
      },
    };
  }

  /** The check of a send at `now`: the cached settings' signals already read, the velocity counts to read in the send's unit. */
  async check(scope: FraudScope, send: GuardedSend, now: Date): Promise<FraudCheck> {
    const state = await this.cache.get(scope);
    const subject = subjectOf(send);
    if (isSafe(state, subject, now.getTime())) return new FraudCheck(this.tools, scope, subject, null, [], null, false);
    const { modes, thresholds } = state.policy;
    const velocity =
      modes.velocity === 'off' ? null : VelocityCounts.of(scope, subject, thresholds, modes.velocity, now, state.liftedAt('prefix', subject.prefix), this.memo, this.allowance);
    await velocity?.lent();
    const lockKeys = this.database.dialect === 'mysql' && modes.velocity === 'enforce';
    return new FraudCheck(this.tools, scope, subject, state, staticFindings(state, subject, now), velocity, lockKeys);
  }

  /** Records a refused send (its unit of work rolled back) with the block it makes, and answers its 403. */
  async refuse(refusal: FraudRefusal, now: Date): Promise<ApiError> {
    const { check } = refusal;
    let madeBlock: ActiveBlock | null = null;
    const attempt = await this.database.transaction(async (sql) => {
      let findings: Finding[] = refusal.findings;
      if (refusal.prefixToBlock !== null) {
        const target = { scope: 'prefix' as const, value: refusal.prefixToBlock, reason: 'prefix_velocity' as const, mode: 'enforce' as const };
        const { block, created } = await this.blocks.impose(sql, check.scope, target, now);
        madeBlock = created ? block : null;
        findings = findings.map((found) => (found.reason === 'prefix_velocity' ? { ...found, until: block.until } : found));
      }
      const recorded = check.attemptOf('blocked', findings, null, now);
      await this.attempts.insert(sql, recorded);
      await this.events.blocked(sql, recorded);
      return { recorded, findings };
    });
    this.metrics.counted('blocked', attempt.findings);
    if (madeBlock) this.cache.blockMade(check.scope, madeBlock);
    return blockedAnswer(attempt.recorded, attempt.findings, now);
  }
}

function subjectOf(send: GuardedSend): SendSubject {
  const sms = send.channel === 'SMS';
  return {
    channel: send.channel,
    recipient: send.recipient,
    country: sms ? send.country : null,
    nationalNumber: sms ? send.recipient.slice(send.dialCode.length) : null,
    prefix: sms ? send.recipient.slice(0, -PREFIX_CUT) : null,
    clientIp: send.clientIp === null ? null : canonicalIp(send.clientIp),
    userRef: send.userRef,
  };
}

/** `403 envoi_bloque`: one sentence per reason; `Retry-After` when every reason is temporary. */
function blockedAnswer(attempt: AttemptRecord, findings: readonly Finding[], now: Date): ApiError {
  const data: SendBlockedDto = { attempt_id: attempt.id, reasons: attempt.reasons, blocked_until: attempt.blockedUntil?.toISOString() ?? null };
  const retryAfter = attempt.blockedUntil ? Math.max(1, Math.ceil((attempt.blockedUntil.getTime() - now.getTime()) / 1000)) : undefined;
  return new ApiError({ status: 403, message: 'envoi_bloque', errors: findings.map((found) => found.error), data }, retryAfter);
}
