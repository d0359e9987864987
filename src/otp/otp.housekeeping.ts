import { Inject, Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { otpConfig, type OtpConfig } from '../config/otp.config.js';
import { Database } from '../database/database.js';
import { LONGEST_OTP_LIFETIME_MS } from './dto/otp-rules.js';
import { OtpRepository } from './otp.repository.js';

const DAY_MS = 24 * 3600_000;

/** Forgets what expired OTPs and old failures no longer need. */
@Injectable()
export class OtpHousekeeping {
  constructor(
    private readonly database: Database,
    private readonly otps: OtpRepository,
    private readonly clock: Clock,
    @Inject(otpConfig.KEY) private readonly config: OtpConfig,
  ) {}

  /** Looks at the OTPs of the last day (and the longest lifetime), so that a service down for less than a day catches up. */
  @Interval(10 * 60_000)
  async purge(): Promise<{ codes: number; failures: number }> {
    const now = this.clock.now();
    const from = new Date(now.getTime() - DAY_MS - LONGEST_OTP_LIFETIME_MS);
    const codes = await this.database.run((sql) => this.otps.forgetExpiredCodes(sql, from, now, now));
    const failuresBefore = new Date(now.getTime() - this.config.failedVerificationWindowSeconds * 1000);
    const failures = await this.database.run((sql) => this.otps.purgeFailuresBefore(sql, failuresBefore));
    return { codes, failures };
  }
}
