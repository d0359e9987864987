import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { Clock } from '../common/clock.js';
import { toUtcSeconds } from '../common/date-format.js';
import { ApiError } from '../common/errors/api-error.js';
import { otpConfig, type OtpConfig } from '../config/otp.config.js';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';
import { Database } from '../database/database.js';
import type { Sql } from '../database/sql.js';
import type { OtpVerificationDto } from './dto/otp-verification.dto.js';
import type { VerifyOtpDto } from './dto/verify-otp.dto.js';
import { hashCode, sameHash } from './otp-code.js';
import { normaliseRecipient } from './otp-recipient.js';
import { OtpRepository, type LatestOtp, type Window } from './otp.repository.js';

export const CODE_INVALID = 'code: code OTP invalide';
/** Hashed in place of a real OTP id when there is none, so that every outcome costs the same work. */
const ABSENT_OTP_ID = '00000000-0000-7000-8000-000000000000';
const ABSENT_HASH = '0'.repeat(64);

type Outcome =
  | { kind: 'verified'; otp: LatestOtp; at: Date }
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | { kind: 'otp-locked'; retryAfter: number }
  | { kind: 'recipient-locked'; retryAfter: number };

/**
 * POST /v1/otp/verify, with the checks of the specification in their order:
 * too many failures for the recipient (429), no usable code (400), expired
 * (410), too many wrong codes for this OTP (429), wrong code (400, counted),
 * right code (200, the OTP is used). The recipient's row is locked for the
 * whole check, so that simultaneous verifications of one code give one 200.
 */
@Injectable()
export class VerifyOtp {
  constructor(
    private readonly database: Database,
    private readonly otps: OtpRepository,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
    @Inject(secretsConfig.KEY) private readonly secrets: SecretsConfig,
  ) {}

  async execute(principal: Principal, dto: VerifyOtpDto): Promise<OtpVerificationDto> {
    const recipient = normaliseRecipient(dto.to);
    const now = this.clock.now();
    const outcome = await this.database.transaction((sql) => this.check(sql, principal.accountId, recipient, dto.code, now), { urgent: true });

    switch (outcome.kind) {
      case 'verified':
        return {
          uniq_id: outcome.otp.uniqId,
          to: recipient,
          channel: outcome.otp.channel.toLowerCase(),
          verified_at: toUtcSeconds(outcome.at),
          send_at: toUtcSeconds(outcome.otp.createdAt),
          application_name: outcome.otp.applicationName,
        };
      case 'invalid':
        throw ApiError.validation([CODE_INVALID]);
      case 'expired':
        throw ApiError.otpExpired();
      case 'otp-locked':
        throw ApiError.tooManyAttempts('code: trop de codes erronés pour ce code OTP, demandez-en un nouveau', outcome.retryAfter);
      case 'recipient-locked':
        throw ApiError.tooManyAttempts(
          `to: trop de vérifications échouées pour ce destinataire, réessayez dans ${outcome.retryAfter} s`,
          outcome.retryAfter,
        );
    }
  }

  /** Decides inside the transaction; refusals are returned, not thrown, so that counted failures are committed. */
  private async check(sql: Sql, accountId: string, recipient: string, code: string, now: Date): Promise<Outcome> {
    const failureWindowMs = this.config.failedVerificationWindowSeconds * 1000;
    const { latest, failures } = await this.otps.lockLatest(sql, accountId, recipient, new Date(now.getTime() - failureWindowMs));
    if (failures.count >= this.config.maxFailedVerifications) {
      return { kind: 'recipient-locked', retryAfter: secondsUntilFreed(failures, failureWindowMs, now) };
    }

    const usable = latest && latest.status === 'pending' && !latest.deliveryFailed ? latest : null;
    const matches = sameHash(hashCode(this.secrets.otpSecret, usable?.uniqId ?? ABSENT_OTP_ID, code), usable?.codeHash ?? ABSENT_HASH);
    if (!usable) {
      await this.otps.recordFailure(sql, accountId, recipient, now);
      return { kind: 'invalid' };
    }
    if (usable.expiresAt.getTime() <= now.getTime()) return { kind: 'expired' };
    if (usable.attempts >= this.config.maxAttempts) {
      return { kind: 'otp-locked', retryAfter: Math.max(1, Math.ceil((usable.expiresAt.getTime() - now.getTime()) / 1000)) };
    }
    if (!matches) {
      await this.otps.countWrongAttempt(sql, usable.uniqId);
      await this.otps.recordFailure(sql, accountId, recipient, now);
      return { kind: 'invalid' };
    }
    await this.otps.markVerified(sql, usable.uniqId, now);
    return { kind: 'verified', otp: usable, at: now };
  }
}

function secondsUntilFreed(window: Window, windowMs: number, now: Date): number {
  const freedAt = (window.oldest ?? now).getTime() + windowMs;
  return Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
}
