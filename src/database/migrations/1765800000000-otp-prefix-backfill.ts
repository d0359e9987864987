import type { MigrationInterface, QueryRunner } from 'typeorm';
import { bindParam } from '../sql.js';
import { LONGEST_OTP_LIFETIME_MS } from '../../otp/dto/otp-rules.js';

/**
 * The send-limit read of an SMS OTP goes through its prefix's OTPs when the
 * fraud guard counts the prefix (OtpRepository.recentSends), so every SMS OTP
 * it may read must have its prefix: those sent within the longest window of
 * that read (an OTP's longest lifetime) before the column existed get theirs.
 */
export class OtpPrefixBackfill1765800000000 implements MigrationInterface {
  name = 'OtpPrefixBackfill1765800000000';

  async up(runner: QueryRunner): Promise<void> {
    const mysql = runner.connection.driver.options.type === 'mysql';
    const since = bindParam(mysql ? 'mysql' : 'sqlite', new Date(Date.now() - LONGEST_OTP_LIFETIME_MS));
    await runner.query(
      `UPDATE otp SET prefix = SUBSTR(recipient, 1, LENGTH(recipient) - 4) WHERE channel = 'SMS' AND prefix IS NULL AND created_at > ?`,
      [since],
    );
  }

  async down(): Promise<void> {
    // the prefixes stay: the columns they fill are the fraud guard's migration's
  }
}
